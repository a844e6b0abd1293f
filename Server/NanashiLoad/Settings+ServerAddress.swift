import NanashiClient

extension LoadTestSettings {
    /// The default settings, against the server at `address` (with its TLS and trusted
    /// certificates).
    public init(server address: ServerAddress) {
        self.init()
        (host, port, tls, trustedCertificates) = (
            address.host, address.port, address.tls, address.trustedCertificates
        )
    }
}

extension QueryTestSettings {
    /// The default settings, against the server at `address` (with its TLS and trusted
    /// certificates).
    public init(server address: ServerAddress) {
        self.init()
        (host, port, tls, trustedCertificates) = (
            address.host, address.port, address.tls, address.trustedCertificates
        )
    }
}
