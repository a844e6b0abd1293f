import Foundation
import NanashiCore
import NanashiProtocol

// One value type per table, in the project's own terms; each backend maps them to its rows
// (SQLiteStorage+Records for GRDB). Times are seconds since 1970.

/// A row of `player`.
package struct PlayerRow: Codable, Hashable, Sendable {
    package var id: Int64?
    package var name: String
    /// The name folded to lower case: names are unique ignoring case.
    package var nameKey: String
    package var passwordHash: String
    package var rating: Double
    package var rd: Double
    package var volatility: Double
    package var games: Int
    package var wins: Int
    package var losses: Int
    package var draws: Int
    /// When the player last finished a rated game; the RD grows from then.
    package var ratedAt: Double?
    package var createdAt: Double
    /// When a moderator closed the account (`nanashi admin close`); `nil` while it is open. A
    /// closed account cannot log in, is off the leaderboard, and its name cannot be registered
    /// again.
    package var closedAt: Double?
    /// When a moderator marked the player as playing with engine help; `nil` if unmarked. A
    /// marked player is off the leaderboard, has no rank, and may not seek rated games.
    package var engineHelpAt: Double?
    /// Whether the player refuses every challenge (`challenges` with `accept` false), until they
    /// say otherwise (`Storage.setRefusesChallenges`).
    package var refusesChallenges = false

    package enum CodingKeys: String, CodingKey {
        case id, name
        case passwordHash = "password_hash"
        case nameKey = "name_key"
        case rating, rd, volatility, games
        case wins, losses, draws
        case ratedAt = "rated_at"
        case createdAt = "created_at"
        case closedAt = "closed_at"
        case engineHelpAt = "engine_help_at"
        case refusesChallenges = "refuses_challenges"
    }

    /// Whether the player counts in the standings: a rated game played, not marked, not closed.
    package var isRanked: Bool { games > 0 && engineHelpAt == nil && closedAt == nil }

    package var glicko: Rating {
        get { Rating(rating: rating, deviation: rd, volatility: volatility) }
        set {
            rating = newValue.rating
            rd = newValue.deviation
            volatility = newValue.volatility
        }
    }

    /// A new player, not yet stored, at the initial rating with no games.
    package static func new(name: String, passwordHash: String, now: Date) -> PlayerRow {
        PlayerRow(
            id: nil, name: name, nameKey: name.lowercased(), passwordHash: passwordHash,
            rating: Rating.initial.rating, rd: Rating.initial.deviation,
            volatility: Rating.initial.volatility,
            games: 0, wins: 0, losses: 0, draws: 0, ratedAt: nil, createdAt: now.timeIntervalSince1970)
    }

    /// Counts a rated game that ended with `outcome`, played as `side`, and takes its new rating.
    package mutating func record(_ outcome: Outcome, as side: Side, after: Rating, now: Date) {
        glicko = after
        games += 1
        switch outcome.winner {
        case nil: draws += 1
        case side: wins += 1
        default: losses += 1
        }
        ratedAt = now.timeIntervalSince1970
    }
}

extension PlayerRow {
    /// A player from a row of `player` as the SQLite backend decodes it. A file from before
    /// `refuses_challenges`, read-only (the operator's view), has no such column: nobody in it
    /// refuses challenges.
    package init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try row.decodeIfPresent(Int64.self, forKey: .id),
            name: try row.decode(String.self, forKey: .name),
            nameKey: try row.decode(String.self, forKey: .nameKey),
            passwordHash: try row.decode(String.self, forKey: .passwordHash),
            rating: try row.decode(Double.self, forKey: .rating),
            rd: try row.decode(Double.self, forKey: .rd),
            volatility: try row.decode(Double.self, forKey: .volatility),
            games: try row.decode(Int.self, forKey: .games), wins: try row.decode(Int.self, forKey: .wins),
            losses: try row.decode(Int.self, forKey: .losses),
            draws: try row.decode(Int.self, forKey: .draws),
            ratedAt: try row.decodeIfPresent(Double.self, forKey: .ratedAt),
            createdAt: try row.decode(Double.self, forKey: .createdAt),
            closedAt: try row.decodeIfPresent(Double.self, forKey: .closedAt),
            engineHelpAt: try row.decodeIfPresent(Double.self, forKey: .engineHelpAt),
            refusesChallenges: try row.decodeIfPresent(Bool.self, forKey: .refusesChallenges) ?? false)
    }

    /// The player's line of the leaderboard at `rank`.
    package func leaderboardEntry(rank: Int) -> LeaderboardEntry {
        LeaderboardEntry(
            rank: rank, name: name, rating: rounded(rating), rd: rounded(rd), games: games, wins: wins,
            losses: losses, draws: draws, provisional: glicko.isProvisional)
    }

    /// The player's profile, with their rank (`nil` if unranked), latest games between people
    /// and latest games against the engine.
    package func profile(rank: Int?, recent: [RecentGame], computer: [RecentGame]) -> Profile {
        Profile(
            name: name, rating: rounded(rating), rd: rounded(rd), rank: rank, games: games, wins: wins,
            losses: losses, draws: draws, recent: recent, computer: computer)
    }
}

/// A row of `token`: the SHA-256 digest of a session token, never the token.
package struct TokenRow: Codable, Hashable, Sendable {
    package var digest: Data
    package var playerID: Int64
    package var createdAt: Double
    package var expiresAt: Double

    package enum CodingKeys: String, CodingKey {
        case digest
        case playerID = "player_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    package init(digest: Data, playerID: Int64, createdAt: Double, expiresAt: Double) {
        self.digest = digest
        self.playerID = playerID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A row of `game`: who played which side at what time control, and how it ended.
package struct GameRow: Codable, Hashable, Sendable {
    package var id: Int64?
    package var xID: Int64
    package var oID: Int64
    package var initial: Int
    package var increment: Int
    package var startedAt: Double
    package var endedAt: Double?
    /// `x`, `o` or `draw`; `nil` while the game goes on.
    package var result: String?
    package var reason: String?
    /// Played for fun: its result rates nobody (a challenge's choice).
    package var casual: Bool
    /// The clocks a planned stop left, after `stoppedPly` plies (`nil`: none).
    package var stoppedPly: Int? = nil
    package var stoppedXClock: Int64? = nil
    package var stoppedOClock: Int64? = nil
    /// The FEN the game started from; `nil` (or empty) for the standard start.
    package var startFEN: String? = nil

    /// The position the game started from: the standard start unless `startFEN` names another.
    ///
    /// - Throws: `StorageError.damaged` for a stored FEN that cannot be read.
    package func startPosition() throws -> Position {
        guard let startFEN, !startFEN.isEmpty else { return .start }
        guard let position = try? Position(fen: startFEN) else {
            throw StorageError.damaged("game \(id ?? 0) starts from an unreadable FEN")
        }
        return position
    }

    /// The clocks a planned stop left, if the game stands at the ply it stopped at.
    package func stopClocks(atPly ply: Int) -> Clocks? {
        guard stoppedPly == ply, let stoppedXClock, let stoppedOClock else { return nil }
        return Clocks(x: stoppedXClock, o: stoppedOClock)
    }

    package enum CodingKeys: String, CodingKey {
        case id
        case xID = "x_id"
        case oID = "o_id"
        case initial, increment
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case result, reason, casual
        case stoppedPly = "stopped_ply"
        case stoppedXClock = "stopped_x_clock"
        case stoppedOClock = "stopped_o_clock"
        case startFEN = "start_fen"
    }
}

/// A row of `move`: one accepted move with both clocks right after it.
package struct MoveRow: Codable, Hashable, Sendable {
    package var gameID: Int64
    /// 1 for the first move.
    package var ply: Int
    package var notation: String
    package var xClock: Int64
    package var oClock: Int64
    package var playedAt: Double

    package enum CodingKeys: String, CodingKey {
        case gameID = "game_id"
        case ply, notation
        case xClock = "x_clock"
        case oClock = "o_clock"
        case playedAt = "played_at"
    }
}

/// A row of `rating_change`: one player's rating before and after one game.
package struct RatingChangeRow: Codable, Hashable, Sendable {
    package var gameID: Int64
    package var playerID: Int64
    package var ratingBefore: Double
    package var rdBefore: Double
    package var volatilityBefore: Double
    package var ratingAfter: Double
    package var rdAfter: Double
    package var volatilityAfter: Double

    package enum CodingKeys: String, CodingKey {
        case gameID = "game_id"
        case playerID = "player_id"
        case ratingBefore = "rating_before"
        case rdBefore = "rd_before"
        case volatilityBefore = "volatility_before"
        case ratingAfter = "rating_after"
        case rdAfter = "rd_after"
        case volatilityAfter = "volatility_after"
    }
}

extension RatingChangeRow {
    /// The change of `player`, as stored before the game, to `after`.
    package init(gameID: Int64, player: PlayerRow, after: Rating) {
        self.init(
            gameID: gameID, playerID: player.id!, ratingBefore: player.rating, rdBefore: player.rd,
            volatilityBefore: player.volatility, ratingAfter: after.rating, rdAfter: after.deviation,
            volatilityAfter: after.volatility)
    }
}
