import NIOSSL

extension ServerAddress {
    /// The TLS context for connections to this address, or `nil` for plain TCP: it trusts the
    /// system's certificate store, or only `trustedCertificates` if given. Make it once and
    /// share it between connections; loading the trust store is the slow part.
    package func makeTLSContext() throws -> NIOSSLContext? {
        guard tls else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let trustedCertificates {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trustedCertificates))
        }
        return try NIOSSLContext(configuration: configuration)
    }

    /// The handler that speaks TLS over one connection with `context`. A host name is sent as
    /// SNI and checked against the certificate; an IP address is checked against its IP
    /// entries.
    package func makeTLSHandler(context: NIOSSLContext) throws -> NIOSSLClientHandler {
        try NIOSSLClientHandler(context: context, serverHostname: isIPAddress ? nil : host)
    }

    /// Whether the host is an IPv4 or IPv6 address rather than a name.
    private var isIPAddress: Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return host.contains(":") || (octets.count == 4 && octets.allSatisfy { UInt8($0) != nil })
    }
}
