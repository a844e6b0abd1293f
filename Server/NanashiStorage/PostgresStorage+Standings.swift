import Foundation
import NanashiCore
import NanashiProtocol
import PostgresNIO

/// The leaderboard, profiles and the archive of finished games, read from PostgreSQL with the
/// same indexes and standing buckets as SQLite's.
extension PostgresStorage {
    package func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
        // A few hundred buckets at most (8 rating points each): read them all, best first.
        let buckets = try await rows(
            "SELECT bucket, players FROM standing_bucket WHERE players > 0 ORDER BY bucket DESC"
        ).map { try $0.decode((Int64, Int).self) }
        let total = buckets.reduce(0) { $0 + $1.1 }
        var passed = 0
        guard offset < total,
            let (first, players) = buckets.first(where: { _, players in
                defer { passed += players }
                return offset < passed + players
            })
        else { return Leaderboard(total: total, entries: []) }
        let above = passed - players
        let page = try await rows(
            """
            SELECT \(unescaped: Self.playerColumns) FROM player WHERE games > 0 AND engine_help_at IS NULL AND closed_at IS NULL AND rating < \(Double(first + 1) * StandingBucket.width)
            ORDER BY rating DESC, name_key LIMIT \(limit) OFFSET \(offset - above)
            """
        ).map(Self.player)
        return Leaderboard(
            total: total,
            entries: page.enumerated().map { index, player in
                player.leaderboardEntry(rank: offset + index + 1)
            })
    }

    package func profile(name: String, recent: Int) async throws -> Profile? {
        guard let player = try await player(named: name), let id = player.id else { return nil }
        var rank: Int?
        if player.isRanked {
            // Everyone in higher buckets, then those ahead within the player's own bucket.
            let bucket = StandingBucket.of(player.rating)
            let (low, high) = (
                Double(bucket) * StandingBucket.width, Double(bucket + 1) * StandingBucket.width
            )
            let ahead = try await rows(
                """
                SELECT (SELECT COALESCE(SUM(players), 0) FROM standing_bucket WHERE bucket > \(bucket))::BIGINT,
                       (SELECT COUNT(*) FROM player
                        WHERE games > 0 AND engine_help_at IS NULL AND closed_at IS NULL AND rating >= \(low) AND rating < \(high)
                        AND (rating > \(player.rating) OR (rating = \(player.rating) AND name_key < \(player.nameKey))))
                """
            ).first?.decode((Int, Int).self)
            rank = (ahead?.0 ?? 0) + (ahead?.1 ?? 0) + 1
        }
        let games = try await rows(
            """
            SELECT game.id, game.x_id, game.result, game.reason, x.name, o.name, rc.rating_before, rc.rating_after
            FROM (
                (SELECT id, ended_at FROM game WHERE x_id = \(id) AND result IS NOT NULL AND engine_level IS NULL
                 ORDER BY ended_at DESC, id DESC LIMIT \(recent))
                UNION ALL
                (SELECT id, ended_at FROM game WHERE o_id = \(id) AND result IS NOT NULL AND engine_level IS NULL
                 ORDER BY ended_at DESC, id DESC LIMIT \(recent))
            ) AS latest
            JOIN game ON game.id = latest.id
            JOIN player AS x ON x.id = game.x_id
            JOIN player AS o ON o.id = game.o_id
            LEFT JOIN rating_change AS rc ON rc.game_id = game.id AND rc.player_id = \(id)
            ORDER BY latest.ended_at DESC, latest.id DESC
            LIMIT \(recent)
            """
        ).map { row -> RecentGame in
            let (gameID, xID, result, reason, xName, oName, before, after) = try row.decode(
                (Int64, Int64, String?, String?, String, String, Double?, Double?).self)
            let color: Side = xID == id ? .x : .o
            return RecentGame(
                game: gameID, opponent: color == .x ? oName : xName, color: color,
                outcome: Outcome(storedResult: result, reason: reason)
                    ?? Outcome(winner: nil, reason: .resignation),
                ratingChange: rounded(after ?? player.rating) - rounded(before ?? player.rating))
        }
        return player.profile(
            rank: rank, recent: games, computer: try await recentEngineGames(playerID: id, recent: recent))
    }

    package func finishedGames(name: String, before: Int64?, limit: Int) async throws -> (
        name: String, games: [FinishedGame]
    )? {
        guard let player = try await player(named: name), let id = player.id else { return nil }
        let before = before ?? Int64.max
        let games = try await rows(
            """
            \(unescaped: Self.finishedGameColumns)
            FROM (
                (SELECT id FROM game WHERE x_id = \(id) AND result IS NOT NULL AND id < \(before) ORDER BY id DESC LIMIT \(limit))
                UNION
                (SELECT id FROM game WHERE o_id = \(id) AND result IS NOT NULL AND id < \(before) ORDER BY id DESC LIMIT \(limit))
            ) AS page
            JOIN game ON game.id = page.id
            \(unescaped: Self.finishedGameJoins)
            ORDER BY game.id DESC
            LIMIT \(limit)
            """
        ).map(Self.finishedGame)
        return (player.name, games)
    }

    package func finishedGame(id: Int64) async throws -> FinishedGame? {
        guard
            let row = try await rows(
                """
                \(unescaped: Self.finishedGameColumns)
                FROM game
                \(unescaped: Self.finishedGameJoins)
                WHERE game.id = \(id) AND game.result IS NOT NULL
                """
            ).first
        else { return nil }
        var game = try Self.finishedGame(row)
        game.moves = try await rows("SELECT notation FROM move WHERE game_id = \(id) ORDER BY ply").map {
            try $0.decode(String.self)
        }
        return game
    }

    /// The columns both archive queries read, after `FROM ... JOIN game`.
    private static let finishedGameColumns = """
        SELECT game.id, game.initial, game.increment, game.started_at, game.ended_at, game.result,
               game.reason, x.name, o.name, game.start_fen,
               COALESCE(x_change.rating_before, x.rating),
               COALESCE(o_change.rating_before, o.rating),
               (SELECT COALESCE(MAX(ply), 0) FROM move WHERE move.game_id = game.id)
        """

    private static let finishedGameJoins = """
        JOIN player AS x ON x.id = game.x_id
        JOIN player AS o ON o.id = game.o_id
        LEFT JOIN rating_change AS x_change ON x_change.game_id = game.id AND x_change.player_id = game.x_id
        LEFT JOIN rating_change AS o_change ON o_change.game_id = game.id AND o_change.player_id = game.o_id
        """

    private static func finishedGame(_ row: PostgresRow) throws -> FinishedGame {
        let (
            id, initial, increment, started, ended, result, reason, xName, oName, start, xRating, oRating,
            plies
        ) =
            try row.decode(
                (
                    Int64, Int, Int, Double, Double, String?, String?, String, String, String?, Double,
                    Double, Int
                ).self)
        guard let outcome = Outcome(storedResult: result, reason: reason) else {
            throw StorageError.damaged("game \(id) has an unknown result or reason")
        }
        return FinishedGame(
            id: id, x: GamePlayer(name: xName, rating: rounded(xRating)),
            o: GamePlayer(name: oName, rating: rounded(oRating)),
            control: TimeControl(initial: initial, increment: increment), outcome: outcome, plies: plies,
            started: Date(timeIntervalSince1970: started), ended: Date(timeIntervalSince1970: ended),
            start: start)
    }
}
