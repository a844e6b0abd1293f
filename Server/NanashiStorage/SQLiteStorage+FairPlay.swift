import Foundation
import GRDB
import NanashiProtocol

/// Rated games' analyses, and rated games without one, in SQLite.
extension SQLiteStorage {
    package func ratedAnalyses(limit: Int) async throws -> [RatedAnalysis] {
        let rows = try await reading { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT game.id, game.x_id, x.name, game.o_id, o.name, analysis.body
                    FROM analysis
                    JOIN game ON game.id = analysis.game_id
                    JOIN player AS x ON x.id = game.x_id
                    JOIN player AS o ON o.id = game.o_id
                    WHERE \(ratedGameCondition)
                    ORDER BY game.ended_at DESC, game.id DESC
                    LIMIT ?
                    """, arguments: [limit]
            ).map { row -> (RatedGame, String) in
                (RatedGame(game: row[0], xID: row[1], xName: row[2], oID: row[3], oName: row[4]), row[5])
            }
        }
        return try rows.map { game, body in
            RatedAnalysis(game: game, analysis: try GameAnalysis(storedBody: body, gameID: game.game))
        }
    }

    package func unanalysedRatedGames(limit: Int) async throws -> [RatedGame] {
        try await reading { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT game.id, game.x_id, x.name, game.o_id, o.name
                    FROM game
                    JOIN player AS x ON x.id = game.x_id
                    JOIN player AS o ON o.id = game.o_id
                    WHERE \(ratedGameCondition)
                        AND NOT EXISTS (SELECT 1 FROM analysis WHERE analysis.game_id = game.id)
                    ORDER BY game.ended_at DESC, game.id DESC
                    LIMIT ?
                    """, arguments: [limit]
            ).map { RatedGame(game: $0[0], xID: $0[1], xName: $0[2], oID: $0[3], oName: $0[4]) }
        }
    }
}
