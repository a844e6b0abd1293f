import Foundation
import GRDB

/// A consistent copy of a server's SQLite database while the server writes to it
/// (`nanashi backup`), through SQLite's online backup: the pages are copied inside one read
/// transaction, a snapshot of the database as of its start, which WAL mode lets the server's
/// writes go on beside. Every commit made before the copy began is in it; none made after.
package enum SQLiteBackup {
    /// What a copy holds.
    package struct Summary: Sendable, Hashable, CustomStringConvertible {
        package var players: Int
        package var games: Int
        package var bytes: Int

        package var description: String { "\(players) players, \(games) games, \(bytes) bytes" }
    }

    /// Copies the database at `source` to a new file at `destination`: into a file beside it
    /// first, checked (`PRAGMA quick_check`), then renamed, so that a failed copy leaves no file.
    ///
    /// - Throws: `BackupError` when the source is not a SQLite file or is missing, the
    ///   destination exists already, or the copy fails; nothing is left at `destination` then.
    package static func copy(from source: String, to destination: String) throws(BackupError) -> Summary {
        guard !source.contains("://") else {
            throw BackupError(
                "nanashi backup copies a SQLite file; back PostgreSQL up with pg_dump (docs/OPERATIONS.md)")
        }
        let files = FileManager.default
        guard files.fileExists(atPath: source) else { throw BackupError("no database file at \(source)") }
        guard !files.fileExists(atPath: destination) else {
            throw BackupError("\(destination) exists already: give a new file")
        }
        let partial = destination + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        do {
            var configuration = Configuration()
            configuration.readonly = true
            // The server may hold the write lock for a moment; the copy reads, and waits at most this.
            configuration.busyMode = .timeout(10)
            let from = try DatabaseQueue(path: source, configuration: configuration)
            let to = try DatabaseQueue(path: partial)
            try from.backup(to: to)
            try from.close()
            let summary = try to.read { db in
                guard try String.fetchOne(db, sql: "PRAGMA quick_check") == "ok" else {
                    throw BackupError("the copy does not pass SQLite's quick_check")
                }
                guard try db.tableExists("player"), try db.tableExists("game") else {
                    throw BackupError("\(source) is not a Nanashi server's database")
                }
                return Summary(
                    players: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0,
                    games: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM game") ?? 0, bytes: 0)
            }
            try to.close()
            try files.moveItem(atPath: partial, toPath: destination)
            var copied = summary
            copied.bytes =
                ((try? files.attributesOfItem(atPath: destination))?[.size] as? NSNumber)?.intValue ?? 0
            return copied
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: partial + suffix) }
            if let error = error as? BackupError { throw error }
            throw BackupError("cannot back \(source) up: \(error)")
        }
    }
}

/// A backup that could not be made, in one line for the operator; nothing was written.
package struct BackupError: Error, Equatable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
