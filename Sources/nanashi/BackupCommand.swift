import ArgumentParser
import NanashiCommandLine
import NanashiStorage

/// `nanashi backup`: a consistent copy of a SQLite database, even while a server writes to it.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a server's SQLite database consistently, while it runs.",
        discussion: """
            SQLite's online backup: every game and rating stored before the copy began is in it. \
            The copy is a database file a server starts on as it is. For PostgreSQL use pg_dump \
            (docs/OPERATIONS.md).
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The new file to write (it must not exist).")
    var out: String

    func run() throws {
        let source = try database.address(default: nil)
        let summary = try SQLiteBackup.copy(from: source, to: out)
        print("backed up \(source) to \(out): \(summary)")
    }
}
