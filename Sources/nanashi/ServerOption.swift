import NanashiClient

extension ServerAddress {
    /// Reads the `--server` option, `127.0.0.1:7878` when it is not given.
    static func fromOption(_ text: String?) throws(InputError) -> ServerAddress {
        guard let text else { return .local }
        do {
            return try ServerAddress(parsing: text)
        } catch {
            throw InputError(error.description)
        }
    }
}
