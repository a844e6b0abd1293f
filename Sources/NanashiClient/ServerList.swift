/// The servers a command may talk to, in the order given: `--server a:7878,b:7878`, nodes that
/// share one database, so that any of them serves the player. A connection tries each in turn.
public struct ServerList: Hashable, Sendable, CustomStringConvertible {
    /// The servers, in the order given; never empty.
    public let addresses: [ServerAddress]

    /// The server on this machine at the default port, alone.
    public static let local = ServerList(.local)

    /// One server alone.
    public init(_ address: ServerAddress) {
        addresses = [address]
    }

    /// Reads addresses separated by commas (`a:7878,tls://b:7878`), each as `ServerAddress`
    /// reads one.
    public init(parsing text: String) throws(ServerAddressError) {
        guard !text.trimmingSpaces.isEmpty else { throw .empty }
        var addresses: [ServerAddress] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !entry.trimmingSpaces.isEmpty else { throw .emptyEntry(text) }
            addresses.append(try ServerAddress(parsing: String(entry)))
        }
        self.addresses = addresses
    }

    /// The servers a command is given (`127.0.0.1:7878` when none is), trusting the PEM file
    /// `certificates` if given, which only `tls://` servers use (at least one must be).
    public init(option text: String?, trusting certificates: String?) throws(ServerAddressError) {
        var list = try text.map { text throws(ServerAddressError) in try ServerList(parsing: text) } ?? .local
        if let certificates {
            guard list.addresses.contains(where: \.tls) else { throw .certificatesWithoutTLS }
            list = ServerList(
                checked: list.addresses.map { address in
                    var address = address
                    if address.tls { address.trustedCertificates = certificates }
                    return address
                })
        }
        self = list
    }

    private init(checked addresses: [ServerAddress]) {
        self.addresses = addresses
    }

    /// The first server given: the one sessions are kept for.
    public var first: ServerAddress { addresses[0] }

    /// The first server that a password would cross a network to unencrypted, if any.
    public var firstInClearText: ServerAddress? { addresses.first(where: \.sendsInClearText) }

    /// The servers in the order to try them: from `preferred` (the last one that worked) when
    /// it is one of them, on through the rest and round to the start; else from the first.
    public func attempts(from preferred: ServerAddress? = nil) -> [ServerAddress] {
        guard let preferred, let start = addresses.firstIndex(of: preferred) else { return addresses }
        return Array(addresses[start...] + addresses[..<start])
    }

    /// The server after `address`, round to the first after the last; `nil` when `address` is
    /// not one of them.
    public func server(after address: ServerAddress) -> ServerAddress? {
        guard let index = addresses.firstIndex(of: address) else { return nil }
        return addresses[(index + 1) % addresses.count]
    }

    /// The addresses as given, separated by commas.
    public var description: String {
        addresses.map(\.description).joined(separator: ",")
    }
}
