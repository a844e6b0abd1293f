import NanashiCore

/// The fields of `games`: one page of a player's finished games, newest first.
public struct GameArchive: Hashable, Sendable, Codable {
    /// The player's name as registered.
    public var name: String
    public var games: [ArchivedGame]

    public init(name: String, games: [ArchivedGame]) {
        self.name = name
        self.games = games
    }
}

/// One finished game in `games`.
public struct ArchivedGame: Hashable, Sendable, Codable {
    public var game: Int64
    /// The players with their ratings before the game (their ratings now for an unrated game).
    public var x: GamePlayer
    public var o: GamePlayer
    public var outcome: Outcome
    /// Moves played.
    public var plies: Int
    /// When the game ended, ISO 8601 in UTC to the second (`2026-11-23T18:25:00Z`).
    public var ended: String

    public init(
        game: Int64, x: GamePlayer, o: GamePlayer, outcome: Outcome, plies: Int, ended: String
    ) {
        self.game = game
        self.x = x
        self.o = o
        self.outcome = outcome
        self.plies = plies
        self.ended = ended
    }
}

/// The fields of `pgn`: one finished game as PGN text.
public struct GamePGN: Hashable, Sendable, Codable {
    public var game: Int64
    public var pgn: String

    public init(game: Int64, pgn: String) {
        self.game = game
        self.pgn = pgn
    }
}
