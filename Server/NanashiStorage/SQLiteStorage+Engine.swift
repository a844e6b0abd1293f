import Foundation
import GRDB
import NanashiCore
import NanashiProtocol

/// Games against the built-in engine and analyses of finished games, in SQLite. The engine's
/// games are marked with `game.engine_level`.
extension SQLiteStorage {
    /// Appends this file's migrations; called by `SQLiteStorage.migrator` after its own.
    package static func registerEngineMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4 games against the engine, analyses") { db in
            try db.execute(
                sql: """
                    ALTER TABLE game ADD COLUMN engine_level INTEGER;
                    CREATE TABLE analysis (
                        game_id INTEGER PRIMARY KEY REFERENCES game(id),
                        body TEXT NOT NULL,
                        created_at REAL NOT NULL
                    );
                    """)
        }
        // Challenges may be casual: their games rate nobody, even resumed after a restart.
        migrator.registerMigration("v5 casual games") { db in
            try db.execute(sql: "ALTER TABLE game ADD COLUMN casual INTEGER NOT NULL DEFAULT 0")
        }
    }

    package func createEngineGame(
        playerID: Int64, side: Side, level: Int, control: TimeControl, now: Date, start: String?
    ) async throws -> (engine: PlayerRow, game: Int64) {
        try await writing { db in
            var engine: PlayerRow
            if let stored = try Self.player(db, named: EnginePlayer.name(level: level)) {
                engine = stored
            } else {
                engine = EnginePlayer.new(level: level, now: now)
                try engine.insert(db)
            }
            let (x, o) = side == .x ? (playerID, engine.id!) : (engine.id!, playerID)
            try db.execute(
                sql: """
                    INSERT INTO game (x_id, o_id, initial, increment, started_at, engine_level, start_fen)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    x, o, control.initial, control.increment, now.timeIntervalSince1970, level, start,
                ])
            return (engine, db.lastInsertedRowID)
        }
    }

    package func unfinishedEngineLevels() async throws -> [Int64: Int] {
        try await reading { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, engine_level FROM game WHERE result IS NULL AND engine_level IS NOT NULL"
            )
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
        }
    }

    package func analysisBody(gameID: Int64) async throws -> String? {
        try await reading { db in
            try String.fetchOne(db, sql: "SELECT body FROM analysis WHERE game_id = ?", arguments: [gameID])
        }
    }

    package func storeAnalysis(_ analysis: GameAnalysis, now: Date) async throws {
        let body = analysis.storedBody()
        try await writing { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO analysis (game_id, body, created_at) VALUES (?, ?, ?)",
                arguments: [analysis.game, body, now.timeIntervalSince1970])
        }
    }

    /// A player's latest finished games against the engine, newest first.
    package static func recentEngineGames(_ db: Database, playerID: Int64, recent: Int) throws -> [RecentGame]
    {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT game.id, game.x_id, game.result, game.reason, x.name AS x_name, o.name AS o_name
                    FROM game
                    JOIN player AS x ON x.id = game.x_id
                    JOIN player AS o ON o.id = game.o_id
                    WHERE (game.x_id = ? OR game.o_id = ?) AND game.engine_level IS NOT NULL
                        AND game.result IS NOT NULL
                    ORDER BY game.ended_at DESC, game.id DESC
                    LIMIT ?
                    """),
            arguments: [playerID, playerID, recent])
        return rows.map { row in
            let color: Side = (row["x_id"] as Int64) == playerID ? .x : .o
            return RecentGame(
                game: row["id"], opponent: color == .x ? row["o_name"] : row["x_name"], color: color,
                outcome: Outcome(storedResult: row["result"], reason: row["reason"])
                    ?? Outcome(winner: nil, reason: .resignation),
                ratingChange: 0)
        }
    }
}
