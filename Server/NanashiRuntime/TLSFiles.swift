import NIOSSL

/// The PEM files a server needs to speak TLS: its certificate chain (the server's own
/// certificate first, as Let's Encrypt's `fullchain.pem` is) and its private key.
public struct TLSFiles: Hashable, Sendable {
    public var certificateChain: String
    public var privateKey: String

    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// Reads both files into a server context (TLS 1.2 at least); throws `TLSFilesError` naming
    /// the file at fault.
    package func serverContext() throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateChain)
        } catch {
            throw TLSFilesError(file: certificateChain, reason: "not a PEM certificate chain (\(error))")
        }
        guard !chain.isEmpty else {
            throw TLSFilesError(file: certificateChain, reason: "no certificate in it")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: privateKey, format: .pem)
        } catch {
            throw TLSFilesError(file: privateKey, reason: "not a PEM private key (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // TLS 1.0 and 1.1 are deprecated (RFC 8996): a client that offers nothing newer is refused.
        configuration.minimumTLSVersion = .tlsv12
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw TLSFilesError(file: privateKey, reason: "does not match the certificate (\(error))")
        }
    }
}

/// Why the TLS files could not be used.
public struct TLSFilesError: Error, CustomStringConvertible {
    public var file: String
    public var reason: String

    public var description: String { "\(file): \(reason)" }
}
