import ArgumentParser
import Foundation
import NanashiClient
import NanashiCore
import NanashiStorage
import NanashiTerminal

/// `--server` and `--ca`: the servers a command talks to.
struct ServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server, HOST:PORT (default 127.0.0.1:7878), or tls://HOST:PORT for TLS.",
            discussion: "Several, separated by commas, are tried in turn (nodes sharing one database)."))
    var server: String?

    @Option(help: "A PEM file of the certificates to trust for a tls:// server (else the system's).")
    var ca: String?

    /// The servers given, `127.0.0.1:7878` when none is, with the `--ca` file to trust if given
    /// (which only `tls://` addresses use).
    func servers() throws(ServerAddressError) -> ServerList {
        try ServerList(option: server, trusting: ca)
    }
}

/// `--accounts`: the bots' accounts, which `nanashi seed` writes and `nanashi loadtest` logs in with.
struct AccountsOption: ParsableArguments {
    @Option(
        help:
            "A file of bot accounts, a 'name token' line each: seed writes it; loadtest logs in with it and adds the accounts it registers."
    )
    var accounts: String?
}

/// `--fen`: the position a command starts from.
struct FENOption: ParsableArguments {
    @Option(
        help: "The position to start from, as FEN or 'startpos' (write --fen=FEN when it starts with '-').")
    var fen: String?

    /// The position given, the start when none is.
    func position() throws(BadFEN) -> Position { try Position(given: fen) }
}

/// `--no-color` and `--line`: how a command shows itself at the terminal.
struct DisplayOptions: ParsableArguments {
    @Flag(
        name: .customLong("no-color"), help: "Plain text, no colors (NO_COLOR in the environment works too)."
    )
    var noColor = false

    @Flag(
        name: .customLong("line"),
        help:
            "Line by line even at a terminal: no full screen (piped input or output is always line by line)."
    )
    var lineMode = false

    var display: Display { Display(noColor: noColor, lineMode: lineMode) }
}

/// `--db` and `--db-file` (else `NANASHI_DB`): the server's database, its password kept off the
/// command line if wished.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The SQLite database file (serve, admin: nanashi.sqlite unless given), or a PostgreSQL database that several servers share.",
            discussion:
                "postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=require]; a password here shows in ps: prefer --db-file or NANASHI_DB."
        ))
    var db: String?

    @Option(help: "A file (chmod 600) whose first line is the --db address.")
    var dbFile: String?

    /// The address given, from `--db`, `--db-file` or `NANASHI_DB`, else `fallback`.
    func address(default fallback: String?) throws -> String {
        try DatabaseSource.text(
            option: db, file: dbFile, environment: ProcessInfo.processInfo.environment, default: fallback)
    }
}
