import NanashiCore

/// A player of a game as `live`, `games` and a watcher's `game` show them: name and rounded
/// rating. The same fields as the `opponent` of `start`.
public typealias GamePlayer = Opponent

/// One game in progress in `live`.
public struct LiveGame: Hashable, Sendable {
    public var game: Int64
    public var x: GamePlayer
    public var o: GamePlayer
    /// `initial` and `increment`, fields of the game's own object (see `GameStart.control`).
    public var control: TimeControl
    /// Moves played so far.
    public var ply: Int

    public init(game: Int64, x: GamePlayer, o: GamePlayer, control: TimeControl, ply: Int) {
        self.game = game
        self.x = x
        self.o = o
        self.control = control
        self.ply = ply
    }
}

extension LiveGame: Codable {
    private enum CodingKeys: String, CodingKey { case game, x, o, ply }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        game = try container.decode(Int64.self, forKey: .game)
        x = try container.decode(GamePlayer.self, forKey: .x)
        o = try container.decode(GamePlayer.self, forKey: .o)
        control = try TimeControl(fieldsOf: decoder)
        ply = try container.decode(Int.self, forKey: .ply)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(game, forKey: .game)
        try container.encode(x, forKey: .x)
        try container.encode(o, forKey: .o)
        try control.encode(to: encoder)
        try container.encode(ply, forKey: .ply)
    }
}

/// The fields of the `game` a watcher gets: the game as it stands, with both players and no
/// `color` (a watcher plays neither side). The clock of the side to move is read at the moment
/// the message is sent.
public struct WatchedGame: Hashable, Sendable {
    public var game: Int64
    public var x: GamePlayer
    public var o: GamePlayer
    /// The position now.
    public var fen: String
    /// Every move so far, from the start position.
    public var moves: [Move]
    public var clock: Clocks
    /// `initial` and `increment`, fields of the message itself (see `GameStart.control`).
    public var control: TimeControl
    /// The FEN the game started from, when not the standard start (`moves` are played from it).
    public var start: String?
    /// Whether the result changes ratings (see `GameStart.rated`: written only when `false`).
    public var rated: Bool

    public init(
        game: Int64, x: GamePlayer, o: GamePlayer, fen: String, moves: [Move], clock: Clocks,
        control: TimeControl, start: String? = nil, rated: Bool = true
    ) {
        self.start = start
        self.rated = rated
        self.game = game
        self.x = x
        self.o = o
        self.fen = fen
        self.moves = moves
        self.clock = clock
        self.control = control
    }
}

extension WatchedGame: Codable {
    private enum CodingKeys: String, CodingKey { case game, x, o, fen, moves, clock, start, rated }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        game = try container.decode(Int64.self, forKey: .game)
        x = try container.decode(GamePlayer.self, forKey: .x)
        o = try container.decode(GamePlayer.self, forKey: .o)
        fen = try container.decode(String.self, forKey: .fen)
        moves = try container.decode([Move].self, forKey: .moves)
        clock = try container.decode(Clocks.self, forKey: .clock)
        control = try TimeControl(fieldsOf: decoder)
        start = try container.decodeIfPresent(String.self, forKey: .start)
        rated = try container.decodeIfPresent(Bool.self, forKey: .rated) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(game, forKey: .game)
        try container.encode(x, forKey: .x)
        try container.encode(o, forKey: .o)
        try container.encode(fen, forKey: .fen)
        try container.encode(moves, forKey: .moves)
        try container.encode(clock, forKey: .clock)
        try container.encodeIfPresent(start, forKey: .start)
        if !rated { try container.encode(false, forKey: .rated) }
        try control.encode(to: encoder)
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
