import ArgumentParser
import Foundation
import NanashiStorage

/// `--db` and `--db-file` (else `NANASHI_DB`): the server's database, its password kept off the
/// command line if wished.
public struct DatabaseOptions: ParsableArguments {
    public init() {}

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
    public func address(default fallback: String?) throws -> String {
        try DatabaseSource.text(
            option: db, file: dbFile, environment: ProcessInfo.processInfo.environment, default: fallback)
    }
}
