import NanashiCore

/// A recorded game being stepped through: the record, and which of its positions is shown.
public struct Replay: Sendable {
    public let record: GameRecord
    /// Every position of the game: the start, then the one after each move.
    public let positions: [Position]
    /// How many moves have been played in the position shown (0 is the start).
    public private(set) var ply = 0

    public init(_ record: GameRecord) {
        self.record = record
        positions = record.positions
    }

    /// The position shown.
    public var position: Position { positions[ply] }

    /// Moves in the game.
    public var plies: Int { record.moves.count }

    /// Moves the position shown as `step` says; returns false (and changes nothing) for a ply
    /// number beyond the game, or a step that goes nowhere (`back` at the start, `next` at the end).
    /// `eval`, `help` and `quit` change nothing and return true.
    public mutating func take(_ step: ReplayStep) -> Bool {
        let target: Int
        switch step {
        case .next: target = ply + 1
        case .back: target = ply - 1
        case .start: target = 0
        case .end: target = plies
        case .ply(let number): target = number
        case .eval, .help, .quit: return true
        }
        guard (0...plies).contains(target) else { return false }
        ply = target
        return true
    }

    /// The move that led to the position shown, with its marks.
    public var lastMove: PlayedMove? {
        ply == 0 ? nil : PlayedMove(record.moves[ply - 1], in: positions[ply - 1])
    }

    /// The heading: `ann (x, White) v bob (o, Black), 300+3, 1-0 (resign)`, from the tags there are.
    public var heading: String {
        let white = record.tags["White"] ?? "?"
        let black = record.tags["Black"] ?? "?"
        var parts = ["\(white) (x) v \(black) (o)"]
        if let control = record.tags["TimeControl"] { parts.append(control) }
        let reason = record.tags["Reason"] ?? record.tags["Termination"]
        parts.append(record.result + (reason.map { " (\($0))" } ?? ""))
        return parts.joined(separator: ", ")
    }

    /// Words after each side's piece count: the player's name, from the `White` (x) and
    /// `Black` (o) tags.
    public var labels: [Side: String] {
        [.x: record.tags["White"], .o: record.tags["Black"]].compactMapValues { $0 }
    }

    /// How far the replay stands: `ply 12 of 60`.
    public var progress: String { "ply \(ply) of \(plies)" }

    /// The engine's word on the position shown: `eval: best b6, score +1.00 for x (depth 6)`.
    public func evaluation(best: Move?, score: ThinkingLine.Score, depth: Int) -> String {
        guard let best, !position.isGameOver else { return "eval: the game is over here" }
        return
            "eval: best \(best), \(ThinkingLine.describe(score, for: position.sideToMove)) (depth \(depth))"
    }
}
