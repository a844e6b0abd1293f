import NanashiCore

/// The fields of `leaderboard`: how many players are rated, and one page of them.
public struct Leaderboard: Hashable, Sendable, Codable {
    public var total: Int
    public var entries: [LeaderboardEntry]

    public init(total: Int, entries: [LeaderboardEntry]) {
        self.total = total
        self.entries = entries
    }
}

/// One line of the leaderboard.
public struct LeaderboardEntry: Hashable, Sendable, Codable {
    public var rank: Int
    public var name: String
    public var rating: Int
    public var rd: Int
    public var games: Int
    public var wins: Int
    public var losses: Int
    public var draws: Int
    /// The rating is still uncertain (RD of 110 or more).
    public var provisional: Bool

    public init(
        rank: Int, name: String, rating: Int, rd: Int, games: Int, wins: Int, losses: Int, draws: Int,
        provisional: Bool
    ) {
        self.rank = rank
        self.name = name
        self.rating = rating
        self.rd = rd
        self.games = games
        self.wins = wins
        self.losses = losses
        self.draws = draws
        self.provisional = provisional
    }
}

/// The fields of `profile`.
public struct Profile: Hashable, Sendable {
    public var name: String
    public var rating: Int
    public var rd: Int
    /// The place on the leaderboard, or `nil` before the first rated game.
    public var rank: Int?
    public var games: Int
    public var wins: Int
    public var losses: Int
    public var draws: Int
    /// The latest finished games against people, newest first.
    public var recent: [RecentGame]
    /// The latest finished games against the built-in engine (unrated), newest first: apart from
    /// `recent`, and counted in none of the figures above.
    public var computer: [RecentGame]

    public init(
        name: String, rating: Int, rd: Int, rank: Int?, games: Int, wins: Int, losses: Int, draws: Int,
        recent: [RecentGame], computer: [RecentGame] = []
    ) {
        self.name = name
        self.rating = rating
        self.rd = rd
        self.rank = rank
        self.games = games
        self.wins = wins
        self.losses = losses
        self.draws = draws
        self.recent = recent
        self.computer = computer
    }
}

extension Profile: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, rating, rd, rank, games, wins, losses, draws, recent, computer
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        rating = try container.decode(Int.self, forKey: .rating)
        rd = try container.decode(Int.self, forKey: .rd)
        rank = try container.decodeIfPresent(Int.self, forKey: .rank)
        games = try container.decode(Int.self, forKey: .games)
        wins = try container.decode(Int.self, forKey: .wins)
        losses = try container.decode(Int.self, forKey: .losses)
        draws = try container.decode(Int.self, forKey: .draws)
        recent = try container.decode([RecentGame].self, forKey: .recent)
        computer = try container.decodeIfPresent([RecentGame].self, forKey: .computer) ?? []
    }

    /// Writes `"rank":null` rather than leaving the key out, as the protocol shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(rating, forKey: .rating)
        try container.encode(rd, forKey: .rd)
        if let rank {
            try container.encode(rank, forKey: .rank)
        } else {
            try container.encodeNil(forKey: .rank)
        }
        try container.encode(games, forKey: .games)
        try container.encode(wins, forKey: .wins)
        try container.encode(losses, forKey: .losses)
        try container.encode(draws, forKey: .draws)
        try container.encode(recent, forKey: .recent)
        try container.encode(computer, forKey: .computer)
    }
}

/// How a game went for one player.
public enum PlayerResult: String, Hashable, Sendable {
    case win
    case loss
    case draw
}

/// One finished game in a profile.
public struct RecentGame: Hashable, Sendable, Codable {
    public var game: Int64
    public var opponent: String
    /// The side the player played.
    public var color: Side
    public var outcome: Outcome
    /// The player's rating after the game minus before it, both rounded.
    public var ratingChange: Int

    public init(game: Int64, opponent: String, color: Side, outcome: Outcome, ratingChange: Int) {
        self.game = game
        self.opponent = opponent
        self.color = color
        self.outcome = outcome
        self.ratingChange = ratingChange
    }

    private enum CodingKeys: String, CodingKey {
        case game, opponent, color, outcome
        case ratingChange = "rating_change"
    }

    /// How the game went for the player.
    public var result: PlayerResult {
        guard let winner = outcome.winner else { return .draw }
        return winner == color ? .win : .loss
    }
}
