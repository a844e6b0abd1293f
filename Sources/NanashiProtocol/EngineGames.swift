import NanashiCore

/// The fields of a `seek` against the built-in engine: `{"type":"seek","ai":LEVEL}`, optionally
/// with `"color"` (the seeker's side), the time control, and where the game starts: `"layout"`
/// (a layout's name) or `"fen"` (a position of one's own). Games against the engine are never
/// rated, so any start the core accepts will do.
public struct EngineSeek: Hashable, Sendable {
    /// The engine's level, as `nanashi play` numbers them (1 is the weakest).
    public var level: Int
    /// The side the seeker plays; `nil` lets the server choose.
    public var color: Side?
    public var control: TimeControl
    /// The named start; ignored when `custom` is given.
    public var layout: Layout
    /// A start of the seeker's own (checked by `Position(startingAt:)`), or `nil`.
    public var custom: Position?

    public init(
        level: Int, color: Side? = nil, control: TimeControl = .standard, layout: Layout = .standard,
        custom: Position? = nil
    ) {
        self.level = level
        self.color = color
        self.control = control
        self.layout = layout
        self.custom = custom
    }

    /// The position the game starts from.
    public var start: Position { custom ?? layout.position }
}

/// The fields of `analysis`: the engine's evaluation of every position of a finished game, and
/// each side's accuracy read off it (`"accuracy"`, sent but never read: it follows from `evals`).
public struct GameAnalysis: Hashable, Sendable, Codable {
    /// A move that lost much: the ply it was (1 for the first move), the move played, the move
    /// the engine preferred and how much the mover lost by it, in `unit`.
    public struct Mistake: Hashable, Sendable, Codable {
        public var ply: Int
        public var played: Move
        public var best: Move
        public var loss: Int

        public init(ply: Int, played: Move, best: Move, loss: Int) {
            self.ply = ply
            self.played = played
            self.best = best
            self.loss = loss
        }
    }

    /// What the evaluations count: hundredths of a piece (100 is one piece more for x).
    public static let unit = "centipieces"
    /// The evaluation of a position won by force: `won` for x, `-won` for o.
    public static let won = 10_000
    /// A move that loses at least this much (3 pieces), in `unit`, is a mistake.
    public static let mistakeThreshold = 300

    public var game: Int64
    /// Always `GameAnalysis.unit`.
    public var unit: String
    /// The depth of every search, in plies.
    public var depth: Int
    /// One per position, the start first: from x's point of view, in `unit`, clamped to
    /// `-won...won`.
    public var evals: [Int]
    public var mistakes: [Mistake]
    /// The side that made the game's first move (x, but in a game from a FEN with o to move):
    /// whose move each change of evaluation is. Not on the wire: the server works out `accuracy`
    /// with it, and a client that reads an analysis sets it from the game's start.
    public var firstMover = Side.x

    public init(game: Int64, depth: Int, evals: [Int], mistakes: [Mistake], unit: String = Self.unit) {
        self.game = game
        self.unit = unit
        self.depth = depth
        self.evals = evals
        self.mistakes = mistakes
    }

    /// The side that made the move of `ply` (1 for the first move).
    public func mover(of ply: Int) -> Side { (ply - 1) % 2 == 0 ? firstMover : firstMover.opponent }

    private enum CodingKeys: String, CodingKey {
        case game, unit, depth, evals, mistakes, accuracy
    }

    private enum SideKeys: String, CodingKey {
        case x, o
    }

    private enum AccuracyKeys: String, CodingKey {
        case moves, accurate, percent
        case averageLoss = "average_loss"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        game = try container.decode(Int64.self, forKey: .game)
        unit = try container.decode(String.self, forKey: .unit)
        depth = try container.decode(Int.self, forKey: .depth)
        evals = try container.decode([Int].self, forKey: .evals)
        mistakes = try container.decode([Mistake].self, forKey: .mistakes)
    }

    /// The stored fields, and `"accuracy":{"x":{..},"o":{..}}`, each side's `moves`,
    /// `accurate`, `percent` and `average_loss` (both rounded to whole numbers).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(game, forKey: .game)
        try container.encode(unit, forKey: .unit)
        try container.encode(depth, forKey: .depth)
        try container.encode(evals, forKey: .evals)
        try container.encode(mistakes, forKey: .mistakes)
        var sides = container.nestedContainer(keyedBy: SideKeys.self, forKey: .accuracy)
        for (side, key) in [(Side.x, SideKeys.x), (.o, .o)] {
            let accuracy = self.accuracy(of: side)
            var fields = sides.nestedContainer(keyedBy: AccuracyKeys.self, forKey: key)
            try fields.encode(accuracy.moves, forKey: .moves)
            try fields.encode(accuracy.accurate, forKey: .accurate)
            try fields.encode(Int(accuracy.percent.rounded()), forKey: .percent)
            try fields.encode(Int(accuracy.averageLoss.rounded()), forKey: .averageLoss)
        }
    }
}
