import NanashiCore

/// The other player of a game, as `start` and `game` show them.
public struct Opponent: Hashable, Sendable, Codable {
    public var name: String
    public var rating: Int

    public init(name: String, rating: Int) {
        self.name = name
        self.rating = rating
    }
}

/// The fields of `start`.
public struct GameStart: Hashable, Sendable, Codable {
    public var game: Int64
    /// The side the receiving player plays.
    public var color: Side
    public var opponent: Opponent
    public var fen: String
    /// Seconds on each clock at the start.
    public var initial: Int
    /// Seconds added to the mover's clock after each move.
    public var increment: Int

    public init(game: Int64, color: Side, opponent: Opponent, fen: String, initial: Int, increment: Int) {
        self.game = game
        self.color = color
        self.opponent = opponent
        self.fen = fen
        self.initial = initial
        self.increment = increment
    }
}

/// The fields of `moved`: the move accepted, the ply it was (1 for the first move), the position
/// after it and both clocks at that moment (the mover's increment included).
public struct Moved: Hashable, Sendable, Codable {
    public var game: Int64
    public var move: String
    public var ply: Int
    public var fen: String
    public var clock: Clocks

    public init(game: Int64, move: String, ply: Int, fen: String, clock: Clocks) {
        self.game = game
        self.move = move
        self.ply = ply
        self.fen = fen
        self.clock = clock
    }
}

/// The fields of `game`: everything a reconnecting player needs to play on. The clock of the side
/// to move is read at the moment the message is sent.
public struct GameState: Hashable, Sendable, Codable {
    public var game: Int64
    public var color: Side
    public var opponent: Opponent
    public var fen: String
    public var moves: [String]
    public var clock: Clocks
    public var initial: Int
    public var increment: Int

    public init(
        game: Int64, color: Side, opponent: Opponent, fen: String, moves: [String], clock: Clocks,
        initial: Int, increment: Int
    ) {
        self.game = game
        self.color = color
        self.opponent = opponent
        self.fen = fen
        self.moves = moves
        self.clock = clock
        self.initial = initial
        self.increment = increment
    }
}

/// A player's rating before and after a game.
public struct RatingChange: Hashable, Sendable, Codable {
    public var before: Int
    public var after: Int

    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}

/// The fields of `end`, as one player receives them.
public struct GameEnd: Hashable, Sendable, Codable {
    public var game: Int64
    public var outcome: Outcome
    /// The receiving player's own rating change.
    public var rating: RatingChange

    public init(game: Int64, outcome: Outcome, rating: RatingChange) {
        self.game = game
        self.outcome = outcome
        self.rating = rating
    }
}
