import Foundation
import GRDB
import NanashiCore
import NanashiProtocol

/// The archive of finished games: a player's games page by page, and one game with its moves.
extension SQLiteStorage {
    /// A page of a player's finished games, newest (highest id) first, from before game `before`
    /// if given; `nil` if nobody has that name (ignoring case).
    package func finishedGames(name: String, before: Int64?, limit: Int) async throws -> (
        name: String, games: [FinishedGame]
    )? {
        try await reading { db in
            guard let player = try Self.player(db, named: name), let id = player.id else { return nil }
            let before = before ?? Int64.max
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: Self.finishedGamesQuery),
                arguments: [id, before, limit, id, before, limit, limit])
            return (player.name, try rows.map(Self.finishedGame))
        }
    }

    /// A finished game with its moves, or `nil` if there is no game with that id or it is not over.
    package func finishedGame(id: Int64) async throws -> FinishedGame? {
        try await reading { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: Self.finishedGameQuery), arguments: [id])
            else { return nil }
            var game = try Self.finishedGame(row)
            game.moves = try String.fetchAll(
                db.cachedStatement(sql: "SELECT notation FROM move WHERE game_id = ? ORDER BY ply"),
                arguments: [id])
            return game
        }
    }

    /// The columns both queries read, after `FROM ... JOIN game`.
    private static let finishedGameColumns = """
        SELECT game.id, game.initial, game.increment, game.started_at, game.ended_at, game.result,
               game.reason, game.start_fen, x.name AS x_name, o.name AS o_name,
               COALESCE(x_change.rating_before, x.rating) AS x_rating,
               COALESCE(o_change.rating_before, o.rating) AS o_rating,
               (SELECT COALESCE(MAX(ply), 0) FROM move WHERE move.game_id = game.id) AS plies
        """

    private static let finishedGameJoins = """
        JOIN player AS x ON x.id = game.x_id
        JOIN player AS o ON o.id = game.o_id
        LEFT JOIN rating_change AS x_change ON x_change.game_id = game.id AND x_change.player_id = game.x_id
        LEFT JOIN rating_change AS o_change ON o_change.game_id = game.id AND o_change.player_id = game.o_id
        """

    /// The player's latest finished games below an id, as x and as o, each read backwards off
    /// its index and merged. Arguments: player, before, limit, player, before, limit, limit.
    private static let finishedGamesQuery = """
        \(finishedGameColumns)
        FROM (
            SELECT id FROM (
                SELECT id FROM game WHERE x_id = ? AND result IS NOT NULL AND id < ? ORDER BY id DESC LIMIT ?)
            UNION
            SELECT id FROM (
                SELECT id FROM game WHERE o_id = ? AND result IS NOT NULL AND id < ? ORDER BY id DESC LIMIT ?)
        ) AS page
        JOIN game ON game.id = page.id
        \(finishedGameJoins)
        ORDER BY game.id DESC
        LIMIT ?
        """

    private static let finishedGameQuery = """
        \(finishedGameColumns)
        FROM game
        \(finishedGameJoins)
        WHERE game.id = ? AND game.result IS NOT NULL
        """

    private static func finishedGame(_ row: Row) throws -> FinishedGame {
        guard let outcome = Outcome(storedResult: row["result"], reason: row["reason"]) else {
            throw StorageError.damaged("game \(row["id"] as Int64) has an unknown result or reason")
        }
        return FinishedGame(
            id: row["id"],
            x: GamePlayer(name: row["x_name"], rating: rounded(row["x_rating"])),
            o: GamePlayer(name: row["o_name"], rating: rounded(row["o_rating"])),
            control: TimeControl(initial: row["initial"], increment: row["increment"]),
            outcome: outcome, plies: row["plies"],
            started: Date(timeIntervalSince1970: row["started_at"]),
            ended: Date(timeIntervalSince1970: row["ended_at"]), start: row["start_fen"])
    }
}

extension SQLiteStorage {
    package func storedEnd(ofGame id: Int64) async throws -> (
        outcome: Outcome, ratings: [Side: RatingChange]
    )? {
        try await reading { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT game.result, game.reason, x.rating AS x_now, o.rating AS o_now,
                                   xc.rating_before AS x_before, xc.rating_after AS x_after,
                                   oc.rating_before AS o_before, oc.rating_after AS o_after
                            FROM game
                            JOIN player AS x ON x.id = game.x_id
                            JOIN player AS o ON o.id = game.o_id
                            LEFT JOIN rating_change AS xc ON xc.game_id = game.id AND xc.player_id = game.x_id
                            LEFT JOIN rating_change AS oc ON oc.game_id = game.id AND oc.player_id = game.o_id
                            WHERE game.id = ? AND game.result IS NOT NULL
                            """), arguments: [id])
            else { return nil }
            guard let outcome = Outcome(storedResult: row["result"], reason: row["reason"]) else {
                throw StorageError.damaged("game \(id) has a result the server does not write")
            }
            func change(_ side: String) -> RatingChange {
                let now: Double = row["\(side)_now"]
                let before: Double? = row["\(side)_before"]
                let after: Double? = row["\(side)_after"]
                return RatingChange(before: rounded(before ?? now), after: rounded(after ?? now))
            }
            return (outcome, [.x: change("x"), .o: change("o")])
        }
    }
}
