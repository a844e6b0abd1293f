import Foundation
import GRDB
import NanashiCore
import NanashiProtocol

/// Games against the built-in engine and analyses of finished games, in storage.
///
/// The engine plays as one player per level, named `AI level N`: a name no person can take
/// (names have no spaces) and a password hash no password matches, so nobody logs in as it. Its
/// games are marked with `game.engine_level` and are never rated.
extension Storage {
    /// Appends this file's migrations; called by `Storage.migrator` after its own.
    static func registerEngineMigrations(_ migrator: inout DatabaseMigrator) {
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
    }

    /// The name of the engine's player at `level`.
    static func enginePlayerName(level: Int) -> String { "AI level \(level)" }

    /// Stores a new game of `playerID` against the engine at `level`, the player on `side`, and
    /// returns the engine's player (made on its first game) and the game's id.
    func createEngineGame(playerID: Int64, side: Side, level: Int, control: TimeControl, now: Date) throws
        -> (
            engine: PlayerRow, game: Int64
        )
    {
        try pool.write { db in
            let name = Self.enginePlayerName(level: level)
            var engine: PlayerRow
            if let stored = try Self.player(db, named: name) {
                engine = stored
            } else {
                engine = PlayerRow(
                    id: nil, name: name, nameKey: name.lowercased(), passwordHash: "engine",
                    rating: Rating.initial.rating, rd: Rating.initial.deviation,
                    volatility: Rating.initial.volatility, games: 0, wins: 0, losses: 0, draws: 0,
                    ratedAt: nil,
                    createdAt: now.timeIntervalSince1970)
                try engine.insert(db)
            }
            let (x, o) = side == .x ? (playerID, engine.id!) : (engine.id!, playerID)
            try db.execute(
                sql: """
                    INSERT INTO game (x_id, o_id, initial, increment, started_at, engine_level)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [x, o, control.initial, control.increment, now.timeIntervalSince1970, level])
            return (engine, db.lastInsertedRowID)
        }
    }

    /// The level of every unfinished game against the engine, by game id.
    func unfinishedEngineLevels() throws -> [Int64: Int] {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, engine_level FROM game WHERE result IS NULL AND engine_level IS NOT NULL"
            )
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
        }
    }

    /// The engine's level in a game, or `nil` for a game between people (or no such game).
    func engineLevel(gameID: Int64) throws -> Int? {
        try pool.read { db in
            try Int.fetchOne(db, sql: "SELECT engine_level FROM game WHERE id = ?", arguments: [gameID])
        }
    }

    /// The stored analysis of a game, if any.
    func analysis(gameID: Int64) throws -> GameAnalysis? {
        try pool.read { db in
            guard
                let body = try String.fetchOne(
                    db, sql: "SELECT body FROM analysis WHERE game_id = ?", arguments: [gameID])
            else { return nil }
            do {
                return try JSONDecoder().decode(GameAnalysis.self, from: Data(body.utf8))
            } catch {
                throw StorageError.damaged("game \(gameID)'s analysis cannot be read: \(error)")
            }
        }
    }

    /// Stores a game's analysis (once: a second one for the same game is ignored).
    func storeAnalysis(_ analysis: GameAnalysis, now: Date) throws {
        let body = String(decoding: try JSONEncoder().encode(analysis), as: UTF8.self)
        try pool.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO analysis (game_id, body, created_at) VALUES (?, ?, ?)",
                arguments: [analysis.game, body, now.timeIntervalSince1970])
        }
    }

    /// A player's latest finished games against the engine, newest first.
    static func recentEngineGames(_ db: Database, playerID: Int64, recent: Int) throws -> [RecentGame] {
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
