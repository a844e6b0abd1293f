import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// the file at fault, and refuses a key file that the file's group or others may read.
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
        // The key behind a symbolic link (Let's Encrypt's `live` folder) is what must be private.
        var status = stat()
        if stat(privateKey, &status) == 0, status.st_mode & 0o044 != 0 {
            throw TLSFilesError(
                file: privateKey,
                reason:
                    "readable by group or others (mode \(String(status.st_mode & 0o777, radix: 8))): "
                    + "make it private (chmod 600) and start again")
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
