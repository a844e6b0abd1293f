import NanashiAI
import NanashiCore

/// A position prepared for the tuner: its terms split between the opening and endgame weights by
/// its phase, and the game's result for its side to move.
public struct TrainingPosition: Sendable {
    /// Terms times the opening share, then terms times the endgame share, in weight order.
    var features: [Double]
    /// 1 for a win of the side to move, 0.5 for a draw, 0 for a loss.
    var result: Double

    /// A position and its result as one line of `nanashi datagen`: the FEN, the search's score
    /// (which the tuner does not use; older files lack it), then `1-0`, `0-1` or `1/2-1/2` for x.
    public init(line: Substring) throws(TuningError) {
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let result = Self.results[String(fields[fields.count - 1])] else {
            throw TuningError("no result at the end of '\(line)'")
        }
        if fields.count == 6 && Int(fields[4]) == nil {
            throw TuningError("bad score '\(fields[4])' in '\(line)'")
        }
        let fen = fields.prefix(min(4, fields.count - 1)).joined(separator: " ")
        guard let position = try? Position(fen: fen) else { throw TuningError("bad FEN '\(fen)'") }
        self.init(position, resultForX: result)
    }

    /// `position`, from a game that x scored `resultForX` in.
    init(_ position: Position, resultForX: Double) {
        let side = position.sideToMove
        let own = position.pieces(of: side).rawValue
        let other = position.pieces(of: side.opponent).rawValue
        let open = position.empty.rawValue
        let terms = Evaluation.terms(own: own, other: other, open: open).map(Double.init)
        let endgame = Evaluation.endgameShare(open: open)
        features = terms.map { $0 * (1 - endgame) } + terms.map { $0 * endgame }
        result = side == .x ? resultForX : 1 - resultForX
    }

    static let results = ["1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5]
}

/// Bad tuning data: the line and what is wrong with it.
public struct TuningError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
