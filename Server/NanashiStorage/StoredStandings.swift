import Foundation
import NanashiProtocol

/// Reads the leaderboard straight from a server's database file, for the operator.
public enum StoredStandings {
    /// A page of the leaderboard in the file at `path`, which is opened read-only.
    ///
    /// - Throws: `ReadError`, saying why the file could not be read.
    public static func leaderboard(databaseAt path: String, limit: Int, offset: Int) throws(ReadError)
        -> Leaderboard
    {
        guard !path.contains("://") else {
            throw ReadError(
                description: "--db reads a server's SQLite file; for PostgreSQL ask a server with --server")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw ReadError(description: "no database file at \(path)")
        }
        do {
            return try SQLiteStorage.leaderboard(databaseAt: path, limit: limit, offset: offset)
        } catch {
            throw ReadError(description: "cannot read the leaderboard from \(path): \(error)")
        }
    }

    /// A database file that could not be read, in one line for the operator.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }
}
