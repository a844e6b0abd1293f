import Foundation
import NanashiCore
import NanashiProtocol
import PostgresNIO

/// Games against the built-in engine and analyses of finished games, in PostgreSQL. The engine's
/// games are marked with `game.engine_level`.
extension PostgresStorage {
    package func createEngineGame(
        playerID: Int64, side: Side, level: Int, control: TimeControl, now: Date, start: String?
    ) async throws -> (engine: PlayerRow, game: Int64) {
        let fresh = EnginePlayer.new(level: level, now: now)
        let (logger, host) = (logger, host)
        return try await transaction { connection in
            // Two servers may make the engine's player at once: the second finds the first's.
            try await connection.query(
                """
                INSERT INTO player (name, name_key, password_hash, rating, rd, volatility, created_at)
                VALUES (\(fresh.name), \(fresh.nameKey), \(fresh.passwordHash), \(fresh.rating), \(fresh.rd),
                        \(fresh.volatility), \(fresh.createdAt))
                ON CONFLICT (name_key) DO NOTHING
                """, logger: logger)
            guard
                let row = try await connection.query(
                    "SELECT \(unescaped: Self.playerColumns) FROM player WHERE name_key = \(fresh.nameKey)",
                    logger: logger
                ).collect().first
            else { throw StorageError.damaged("the engine's player at level \(level) is missing") }
            let engine = try Self.player(row)
            guard let engineID = engine.id else {
                throw StorageError.damaged("the engine's player has no id")
            }
            let (x, o) = side == .x ? (playerID, engineID) : (engineID, playerID)
            guard
                let id = try await connection.query(
                    """
                    INSERT INTO game (x_id, o_id, initial, increment, started_at, engine_level, host, start_fen)
                    VALUES (\(x), \(o), \(control.initial), \(control.increment), \(now.timeIntervalSince1970),
                            \(level), \(host), \(start))
                    RETURNING id
                    """, logger: logger
                ).collect().first?.decode(Int64.self)
            else { throw StorageError.damaged("a new game got no id") }
            return (engine, id)
        }
    }

    package func unfinishedEngineLevels() async throws -> [Int64: Int] {
        var levels: [Int64: Int] = [:]
        for row in try await rows(
            "SELECT id, engine_level FROM game WHERE result IS NULL AND engine_level IS NOT NULL")
        {
            let (id, level) = try row.decode((Int64, Int).self)
            levels[id] = level
        }
        return levels
    }

    package func analysisBody(gameID: Int64) async throws -> String? {
        try await rows("SELECT body FROM analysis WHERE game_id = \(gameID)").first?.decode(String.self)
    }

    package func storeAnalysis(_ analysis: GameAnalysis, now: Date) async throws {
        let body = analysis.storedBody()
        try await client.query(
            """
            INSERT INTO analysis (game_id, body, created_at)
            VALUES (\(analysis.game), \(body), \(now.timeIntervalSince1970))
            ON CONFLICT (game_id) DO NOTHING
            """, logger: logger)
    }

    /// A player's latest finished games against the engine, newest first.
    package func recentEngineGames(playerID: Int64, recent: Int) async throws -> [RecentGame] {
        try await rows(
            """
            SELECT game.id, game.x_id, game.result, game.reason, x.name, o.name
            FROM game
            JOIN player AS x ON x.id = game.x_id
            JOIN player AS o ON o.id = game.o_id
            WHERE (game.x_id = \(playerID) OR game.o_id = \(playerID)) AND game.engine_level IS NOT NULL
                AND game.result IS NOT NULL
            ORDER BY game.ended_at DESC, game.id DESC
            LIMIT \(recent)
            """
        ).map { row -> RecentGame in
            let (gameID, xID, result, reason, xName, oName) = try row.decode(
                (Int64, Int64, String?, String?, String, String).self)
            let color: Side = xID == playerID ? .x : .o
            return RecentGame(
                game: gameID, opponent: color == .x ? oName : xName, color: color,
                outcome: Outcome(storedResult: result, reason: reason)
                    ?? Outcome(winner: nil, reason: .resignation),
                ratingChange: 0)
        }
    }
}
