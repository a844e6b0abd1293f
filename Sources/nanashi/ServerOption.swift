import NanashiClient

extension ServerAddress {
    /// Reads the `--server` option, `127.0.0.1:7878` when it is not given, with the `--ca`
    /// file to trust if given (which only a `tls://` address uses).
    static func fromOption(_ text: String?, ca: String? = nil) throws(InputError) -> ServerAddress {
        var address = ServerAddress.local
        if let text {
            do {
                address = try ServerAddress(parsing: text)
            } catch {
                throw InputError(error.description)
            }
        }
        if let ca {
            guard address.tls else { throw InputError("--ca is for a tls:// server") }
            address.trustedCertificates = ca
        }
        return address
    }
}
