import NanashiCore

/// A player of a game as `live`, `games` and a watcher's `game` show them: name and rounded
/// rating. The same fields as the `opponent` of `start`.
public typealias GamePlayer = Opponent

/// One game in progress in `live`.
public struct LiveGame: Hashable, Sendable, Codable {
    public var game: Int64
    public var x: GamePlayer
    public var o: GamePlayer
    /// Seconds on each clock at the start.
    public var initial: Int
    /// Seconds added after each move.
    public var increment: Int
    /// Moves played so far.
    public var ply: Int

    public init(game: Int64, x: GamePlayer, o: GamePlayer, initial: Int, increment: Int, ply: Int) {
        self.game = game
        self.x = x
        self.o = o
        self.initial = initial
        self.increment = increment
        self.ply = ply
    }
}

/// The fields of the `game` a watcher gets: the game as it stands, with both players and no
/// `color` (a watcher plays neither side). The clock of the side to move is read at the moment
/// the message is sent.
public struct WatchedGame: Hashable, Sendable, Codable {
    public var game: Int64
    public var x: GamePlayer
    public var o: GamePlayer
    /// The position now.
    public var fen: String
    /// Every move so far, from the start position.
    public var moves: [String]
    public var clock: Clocks
    public var initial: Int
    public var increment: Int

    public init(
        game: Int64, x: GamePlayer, o: GamePlayer, fen: String, moves: [String], clock: Clocks, initial: Int,
        increment: Int
    ) {
        self.game = game
        self.x = x
        self.o = o
        self.fen = fen
        self.moves = moves
        self.clock = clock
        self.initial = initial
        self.increment = increment
    }
}

/// The fields of the `end` a watcher gets: how the game ended, without a rating change (which is
/// each player's own).
public struct WatchedEnd: Hashable, Sendable, Codable {
    public var game: Int64
    public var outcome: Outcome

    public init(game: Int64, outcome: Outcome) {
        self.game = game
        self.outcome = outcome
    }
}
