import Foundation
import GRDB
import NanashiCore
import NanashiProtocol

// One row type per table (GRDB records); only storage reads and writes them. Times are seconds since 1970.

/// A row of `player`.
struct PlayerRow: Codable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"

    var id: Int64?
    var name: String
    /// The name folded to lower case: names are unique ignoring case.
    var nameKey: String
    var passwordHash: String
    var rating: Double
    var rd: Double
    var volatility: Double
    var games: Int
    var wins: Int
    var losses: Int
    var draws: Int
    /// When the player last finished a rated game; the RD grows from then.
    var ratedAt: Double?
    var createdAt: Double

    enum CodingKeys: String, CodingKey {
        case id, name
        case passwordHash = "password_hash"
        case nameKey = "name_key"
        case rating, rd, volatility, games
        case wins, losses, draws
        case ratedAt = "rated_at"
        case createdAt = "created_at"
    }

    var glicko: Rating {
        get { Rating(rating: rating, deviation: rd, volatility: volatility) }
        set {
            rating = newValue.rating
            rd = newValue.deviation
            volatility = newValue.volatility
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// A new player, not yet stored, at the initial rating with no games.
    static func new(name: String, passwordHash: String, now: Date) -> PlayerRow {
        PlayerRow(
            id: nil, name: name, nameKey: name.lowercased(), passwordHash: passwordHash,
            rating: Rating.initial.rating, rd: Rating.initial.deviation,
            volatility: Rating.initial.volatility,
            games: 0, wins: 0, losses: 0, draws: 0, ratedAt: nil, createdAt: now.timeIntervalSince1970)
    }

    /// Counts a rated game that ended with `outcome`, played as `side`, and takes its new rating.
    mutating func record(_ outcome: Outcome, as side: Side, after: Rating, now: Date) {
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
    /// The player's line of the leaderboard at `rank`.
    func leaderboardEntry(rank: Int) -> LeaderboardEntry {
        LeaderboardEntry(
            rank: rank, name: name, rating: rounded(rating), rd: rounded(rd), games: games, wins: wins,
            losses: losses, draws: draws, provisional: glicko.isProvisional)
    }

    /// The player's profile, with their rank (`nil` if unranked), latest games between people
    /// and latest games against the engine.
    func profile(rank: Int?, recent: [RecentGame], computer: [RecentGame]) -> Profile {
        Profile(
            name: name, rating: rounded(rating), rd: rounded(rd), rank: rank, games: games, wins: wins,
            losses: losses, draws: draws, recent: recent, computer: computer)
    }
}

/// A row of `token`: the SHA-256 digest of a session token, never the token.
struct TokenRow: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "token"

    var digest: Data
    var playerID: Int64
    var createdAt: Double
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case digest
        case playerID = "player_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }
}

/// A row of `game`: who played which side at what time control, and how it ended.
struct GameRow: Codable, Hashable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "game"

    var id: Int64?
    var xID: Int64
    var oID: Int64
    var initial: Int
    var increment: Int
    var startedAt: Double
    var endedAt: Double?
    /// `x`, `o` or `draw`; `nil` while the game goes on.
    var result: String?
    var reason: String?

    enum CodingKeys: String, CodingKey {
        case id
        case xID = "x_id"
        case oID = "o_id"
        case initial, increment
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case result, reason
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `move`: one accepted move with both clocks right after it.
struct MoveRow: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "move"

    var gameID: Int64
    /// 1 for the first move.
    var ply: Int
    var notation: String
    var xClock: Int64
    var oClock: Int64
    var playedAt: Double

    enum CodingKeys: String, CodingKey {
        case gameID = "game_id"
        case ply, notation
        case xClock = "x_clock"
        case oClock = "o_clock"
        case playedAt = "played_at"
    }
}

/// A row of `rating_change`: one player's rating before and after one game.
struct RatingChangeRow: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "rating_change"

    var gameID: Int64
    var playerID: Int64
    var ratingBefore: Double
    var rdBefore: Double
    var volatilityBefore: Double
    var ratingAfter: Double
    var rdAfter: Double
    var volatilityAfter: Double

    enum CodingKeys: String, CodingKey {
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
    init(gameID: Int64, player: PlayerRow, after: Rating) {
        self.init(
            gameID: gameID, playerID: player.id!, ratingBefore: player.rating, rdBefore: player.rd,
            volatilityBefore: player.volatility, ratingAfter: after.rating, rdAfter: after.deviation,
            volatilityAfter: after.volatility)
    }
}
