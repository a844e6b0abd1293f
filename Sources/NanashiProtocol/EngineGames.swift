import NanashiCore

/// The fields of a `seek` against the built-in engine: `{"type":"seek","ai":LEVEL}`, optionally
/// with `"color"` (the seeker's side) and the time control.
public struct EngineSeek: Hashable, Sendable {
    /// The engine's level, as `nanashi play` numbers them (1 is the weakest).
    public var level: Int
    /// The side the seeker plays; `nil` lets the server choose.
    public var color: Side?
    public var control: TimeControl

    public init(level: Int, color: Side? = nil, control: TimeControl = .standard) {
        self.level = level
        self.color = color
        self.control = control
    }
}

/// The fields of `analysis`: the engine's evaluation of every position of a finished game.
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

    public init(game: Int64, depth: Int, evals: [Int], mistakes: [Mistake], unit: String = Self.unit) {
        self.game = game
        self.unit = unit
        self.depth = depth
        self.evals = evals
        self.mistakes = mistakes
    }
}
