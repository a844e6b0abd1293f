import NanashiProtocol

/// Reads the leaderboard straight from a server's database file, for the operator.
public enum StoredStandings {
    /// A page of the leaderboard in the file at `path`, which is opened read-only.
    ///
    /// - Throws: an error describing why the file could not be read.
    public static func leaderboard(databaseAt path: String, limit: Int, offset: Int) throws -> Leaderboard {
        try SQLiteStorage.leaderboard(databaseAt: path, limit: limit, offset: offset)
    }
}
