import NanashiCore

/// The other player of a game, as `start` and `game` show them.
public struct Opponent: Hashable, Sendable, Codable {
    public var name: String
    public var rating: Int

    public init(name: String, rating: Int) {
        self.name = name
        self.rating = rating
    }

    /// The name of the built-in engine's player at `level`, `AI level 3`: a name no person can
    /// take (names have no spaces).
    public static func engineName(level: Int) -> String { "AI level \(level)" }

    /// The engine's level when this is the built-in engine's player (its rating is then the
    /// server's unrated 1500, not its strength); `nil` for a person.
    public var engineLevel: Int? { Self.engineLevel(named: name) }

    /// The engine's level when `name` is the built-in engine's player's (`AI level 3`), else `nil`.
    public static func engineLevel(named name: String) -> Int? {
        let prefix = "AI level "
        guard name.hasPrefix(prefix), let level = Int(name.dropFirst(prefix.count)), level > 0,
            engineName(level: level) == name
        else { return nil }
        return level
    }
}

/// The fields of `start`.
public struct GameStart: Hashable, Sendable {
    public var game: Int64
    /// The side the receiving player plays.
    public var color: Side
    public var opponent: Opponent
    public var fen: String
    /// Whole seconds on each clock at the start (`initial`) and added to the mover's after each
    /// move (`increment`), fields of the message itself.
    public var control: TimeControl
    /// The receiver's legal moves, when it is their turn (see `Moved.legal`); `nil` otherwise.
    public var legal: [Move]?
    /// Whether the result changes ratings. Written only for a casual game (`"rated":false`, as
    /// a casual challenge's and every game against the engine): left out, a game is rated.
    public var rated: Bool

    public init(
        game: Int64, color: Side, opponent: Opponent, fen: String, control: TimeControl, legal: [Move]? = nil,
        rated: Bool = true
    ) {
        self.game = game
        self.color = color
        self.opponent = opponent
        self.fen = fen
        self.control = control
        self.legal = legal
        self.rated = rated
    }
}

extension GameStart: Codable {
    private enum CodingKeys: String, CodingKey { case game, color, opponent, fen, legal, rated }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        game = try container.decode(Int64.self, forKey: .game)
        color = try container.decode(Side.self, forKey: .color)
        opponent = try container.decode(Opponent.self, forKey: .opponent)
        fen = try container.decode(String.self, forKey: .fen)
        control = try TimeControl(fieldsOf: decoder)
        legal = try container.decodeIfPresent([Move].self, forKey: .legal)
        rated = try container.decodeIfPresent(Bool.self, forKey: .rated) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(game, forKey: .game)
        try container.encode(color, forKey: .color)
        try container.encode(opponent, forKey: .opponent)
        try container.encode(fen, forKey: .fen)
        try control.encode(to: encoder)
        try container.encodeIfPresent(legal, forKey: .legal)
        if !rated { try container.encode(false, forKey: .rated) }
    }
}

/// The fields of `moved`: the move accepted, the ply it was (1 for the first move), the position
/// after it, both clocks at that moment (the mover's increment included), the pieces the move
/// turned and, for the player to move next, their legal moves.
public struct Moved: Hashable, Sendable {
    public var game: Int64
    public var move: Move
    public var ply: Int
    public var fen: String
    public var clock: Clocks
    /// The pieces the move turned over, written a1 first.
    public var converted: Bitboard
    /// The legal moves of the side to move after this one, as the core lists them (clones by
    /// destination, then jumps by origin; `[.pass]` for a forced pass; none once the game is
    /// over). Only the player whose turn it is gets them: `nil` in everyone else's copy.
    public var legal: [Move]?

    public init(
        game: Int64, move: Move, ply: Int, fen: String, clock: Clocks, converted: Bitboard = .empty,
        legal: [Move]? = nil
    ) {
        self.game = game
        self.move = move
        self.ply = ply
        self.fen = fen
        self.clock = clock
        self.converted = converted
        self.legal = legal
    }
}

extension Moved: Codable {
    private enum CodingKeys: String, CodingKey { case game, move, ply, fen, clock, converted, legal }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        game = try container.decode(Int64.self, forKey: .game)
        move = try container.decode(Move.self, forKey: .move)
        ply = try container.decode(Int.self, forKey: .ply)
        fen = try container.decode(String.self, forKey: .fen)
        clock = try container.decode(Clocks.self, forKey: .clock)
        // A server from before `converted` sends none: read as no piece turned, so that a newer
        // client still plays there.
        converted = Bitboard(try container.decodeIfPresent([Square].self, forKey: .converted) ?? [])
        legal = try container.decodeIfPresent([Move].self, forKey: .legal)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(game, forKey: .game)
        try container.encode(move, forKey: .move)
        try container.encode(ply, forKey: .ply)
        try container.encode(fen, forKey: .fen)
        try container.encode(clock, forKey: .clock)
        try container.encode(Array(converted), forKey: .converted)
        try container.encodeIfPresent(legal, forKey: .legal)
    }
}

/// The fields of `game`: everything a reconnecting player needs to play on. The clock of the side
/// to move is read at the moment the message is sent.
public struct GameState: Hashable, Sendable {
    public var game: Int64
    public var color: Side
    public var opponent: Opponent
    public var fen: String
    /// Every move so far, from the start position.
    public var moves: [Move]
    public var clock: Clocks
    /// `initial` and `increment`, fields of the message itself (see `GameStart.control`).
    public var control: TimeControl
    /// The receiver's legal moves, when it is their turn (see `Moved.legal`); `nil` otherwise.
    public var legal: [Move]?
    /// The FEN the game started from, when not the standard start (`moves` are played from it).
    public var start: String?
    /// Whether the result changes ratings (see `GameStart.rated`).
    public var rated: Bool

    public init(
        game: Int64, color: Side, opponent: Opponent, fen: String, moves: [Move], clock: Clocks,
        control: TimeControl, legal: [Move]? = nil, start: String? = nil, rated: Bool = true
    ) {
        self.start = start
        self.rated = rated
        self.game = game
        self.color = color
        self.opponent = opponent
        self.fen = fen
        self.moves = moves
        self.clock = clock
        self.control = control
        self.legal = legal
    }
}

/// A `game` is written as the `start` of the game as it stands (`fen` the position now), with
/// `moves` and `clock`.
extension GameState: Codable {
    private enum CodingKeys: String, CodingKey { case moves, clock, start }

    public init(from decoder: any Decoder) throws {
        let start = try GameStart(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            game: start.game, color: start.color, opponent: start.opponent, fen: start.fen,
            moves: try container.decode([Move].self, forKey: .moves),
            clock: try container.decode(Clocks.self, forKey: .clock), control: start.control,
            legal: start.legal, start: try container.decodeIfPresent(String.self, forKey: .start),
            rated: start.rated)
    }

    public func encode(to encoder: any Encoder) throws {
        let start = GameStart(
            game: game, color: color, opponent: opponent, fen: fen, control: control, legal: legal,
            rated: rated)
        try start.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(moves, forKey: .moves)
        try container.encode(clock, forKey: .clock)
        try container.encodeIfPresent(self.start, forKey: .start)
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
