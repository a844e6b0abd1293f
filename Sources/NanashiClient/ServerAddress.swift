import NanashiProtocol

/// Where a server listens and how to speak to it: a host name or address and a TCP port,
/// written `HOST:PORT`, or `tls://HOST:PORT` for TLS.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// Whether the connection speaks TLS.
    public var tls: Bool
    /// A PEM file of the certificates to trust instead of the system's (`--ca`, for a server
    /// with a self-signed certificate); only used with TLS.
    public var trustedCertificates: String?

    /// The port `nanashi serve` listens on unless told otherwise.
    public static let defaultPort = 7878
    /// The server on this machine at the default port, `127.0.0.1:7878`.
    public static let local = ServerAddress(host: "127.0.0.1", port: defaultPort)

    public init(host: String, port: Int, tls: Bool = false, trustedCertificates: String? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
        self.trustedCertificates = trustedCertificates
    }

    /// Reads `HOST:PORT`, `HOST` (the default port), or `[IPv6]:PORT`, each optionally after
    /// `tls://` (TLS) or `tcp://` (plain TCP, as without a scheme).
    public init(parsing text: String) throws(ServerAddressError) {
        var trimmed = text.trimmingSpaces
        var tls = false
        if trimmed.lowercased().hasPrefix("tls://") {
            tls = true
            trimmed = trimmed.dropFirst(6)
        } else if trimmed.lowercased().hasPrefix("tcp://") {
            trimmed = trimmed.dropFirst(6)
        }
        guard !trimmed.isEmpty else { throw .empty }
        var host = trimmed
        var portText: Substring? = nil
        if trimmed.hasPrefix("[") {
            // [::1]:7878: the brackets keep the address's own colons apart from the port's.
            guard let close = trimmed.firstIndex(of: "]") else { throw .badHost(text) }
            host = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .badHost(text) }
                portText = rest.dropFirst()
            }
        } else if let colon = trimmed.lastIndex(of: ":") {
            guard trimmed.firstIndex(of: ":") == colon else { throw .badHost(text) }
            host = trimmed[..<colon]
            portText = trimmed[trimmed.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { throw .badHost(text) }
        var port = Self.defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw .badPort(String(portText))
            }
            port = number
        }
        self.init(host: String(host), port: port, tls: tls)
    }

    /// Whether the host is this machine (`localhost`, 127.0.0.0/8 or `::1`): what is sent there
    /// in clear text crosses no network.
    public var isLoopback: Bool {
        let name = host.lowercased()
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        let isIPv4 = octets.count == 4 && octets.allSatisfy { UInt8($0) != nil }
        return name == "localhost" || name == "::1" || (isIPv4 && octets[0] == "127")
    }

    /// Whether a password sent here crosses a network unencrypted: plain TCP to another machine.
    public var sendsInClearText: Bool { !tls && !isLoopback }

    /// `host:port` (`[host]:port` when the host has colons), after `tls://` for TLS.
    public var description: String {
        (tls ? "tls://" : "") + (host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
    }
}

/// Why a `--server` value is not an address.
public enum ServerAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    case empty
    case badHost(String)
    case badPort(String)
    /// A list of servers with nothing between two commas (or before or after one).
    case emptyEntry(String)
    /// Certificates to trust were given for a server without TLS.
    case certificatesWithoutTLS

    public var description: String {
        switch self {
        case .empty: "the server address is empty: use HOST:PORT, like 127.0.0.1:7878"
        case .badHost(let text): "bad server address '\(text)': use HOST:PORT, like 127.0.0.1:7878"
        case .badPort(let text): "bad port '\(text)' in the server address: use 1 to 65535"
        case .emptyEntry(let text):
            "an empty server address in '\(text)': separate the servers with single commas, like a:7878,b:7878"
        case .certificatesWithoutTLS: "--ca is for a tls:// server"
        }
    }
}
