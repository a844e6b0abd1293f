import ArgumentParser
import NanashiClient

/// `--server` and `--ca`: the servers a command talks to.
public struct ServerOptions: ParsableArguments {
    public init() {}

    @Option(
        help: ArgumentHelp(
            "The server, HOST:PORT (default 127.0.0.1:7878), or tls://HOST:PORT for TLS.",
            discussion: "Several, separated by commas, are tried in turn (nodes sharing one database)."))
    public var server: String?

    @Option(help: "A PEM file of the certificates to trust for a tls:// server (else the system's).")
    var ca: String?

    /// The servers given, `127.0.0.1:7878` when none is, with the `--ca` file to trust if given
    /// (which only `tls://` addresses use).
    public func servers() throws(ServerAddressError) -> ServerList {
        try ServerList(option: server, trusting: ca)
    }
}
