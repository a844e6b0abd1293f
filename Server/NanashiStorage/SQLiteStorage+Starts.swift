import Foundation
import GRDB
import NanashiCore
import NanashiProtocol

/// Games from other starts than the standard one, and players who refuse every challenge, in
/// SQLite: `game.start_fen` and `player.refuses_challenges`.
extension SQLiteStorage {
    /// Appends this file's migration; called by `SQLiteStorage.migrator` after the others.
    package static func registerStartMigrations(_ migrator: inout DatabaseMigrator) {
        // A game from a layout or a FEN of one's own keeps its start (NULL: the standard start);
        // a player's refusal of all challenges outlives their session.
        migrator.registerMigration("v8 start positions, refused challenges") { db in
            try db.execute(
                sql: """
                    ALTER TABLE game ADD COLUMN start_fen TEXT;
                    ALTER TABLE player ADD COLUMN refuses_challenges INTEGER NOT NULL DEFAULT 0;
                    """)
        }
    }

    package func createGame(
        xID: Int64, oID: Int64, control: TimeControl, now: Date, casual: Bool, start: String?
    ) async throws -> Int64 {
        try await writingOneStatement { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO game (x_id, o_id, initial, increment, started_at, casual, start_fen)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                xID, oID, control.initial, control.increment, now.timeIntervalSince1970, casual, start,
            ])
            return db.lastInsertedRowID
        }
    }

    package func setRefusesChallenges(_ refuses: Bool, playerID: Int64) async throws {
        try await writingOneStatement { db in
            try db.cachedStatement(sql: "UPDATE player SET refuses_challenges = ? WHERE id = ?")
                .execute(arguments: [refuses, playerID])
        }
    }
}
