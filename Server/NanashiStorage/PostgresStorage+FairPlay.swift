import Foundation
import NanashiProtocol
import PostgresNIO

/// Rated games' analyses, and rated games without one, in PostgreSQL.
extension PostgresStorage {
    package func ratedAnalyses(limit: Int) async throws -> [RatedAnalysis] {
        try await rows(
            """
            SELECT game.id, game.x_id, x.name, game.o_id, o.name, analysis.body
            FROM analysis
            JOIN game ON game.id = analysis.game_id
            JOIN player AS x ON x.id = game.x_id
            JOIN player AS o ON o.id = game.o_id
            WHERE \(unescaped: ratedGameCondition)
            ORDER BY game.ended_at DESC, game.id DESC
            LIMIT \(limit)
            """
        ).map { row in
            let (id, xID, xName, oID, oName, body) = try row.decode(
                (Int64, Int64, String, Int64, String, String).self)
            let game = RatedGame(game: id, xID: xID, xName: xName, oID: oID, oName: oName)
            return RatedAnalysis(game: game, analysis: try GameAnalysis(storedBody: body, gameID: id))
        }
    }

    package func unanalysedRatedGames(limit: Int) async throws -> [RatedGame] {
        try await rows(
            """
            SELECT game.id, game.x_id, x.name, game.o_id, o.name
            FROM game
            JOIN player AS x ON x.id = game.x_id
            JOIN player AS o ON o.id = game.o_id
            WHERE \(unescaped: ratedGameCondition)
                AND NOT EXISTS (SELECT 1 FROM analysis WHERE analysis.game_id = game.id)
            ORDER BY game.ended_at DESC, game.id DESC
            LIMIT \(limit)
            """
        ).map { row in
            let (id, xID, xName, oID, oName) = try row.decode((Int64, Int64, String, Int64, String).self)
            return RatedGame(game: id, xID: xID, xName: xName, oID: oID, oName: oName)
        }
    }

    /// Takes the nodes' turn at background analysis at `at` (milliseconds since 1970) unless a
    /// node took it less than `every` milliseconds before; returns whether it did. One statement:
    /// of nodes taking it at once, the first to lock the row does, and the others find it taken.
    package func takeBackgroundTurn(at: Int64, every: Int64) async throws -> Bool {
        try await !rows(
            """
            INSERT INTO background_turn (id, at) VALUES (1, \(at))
            ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at WHERE background_turn.at <= EXCLUDED.at - \(every)
            RETURNING 1
            """
        ).isEmpty
    }
}
