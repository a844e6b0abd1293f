import NanashiCore
import NanashiProtocol

/// The engine's analysis of a replayed game, as the server stores it, shown under each position.
extension GameAnalysis {
    /// One line for the heading: the depth and where the mistakes are.
    var summary: String {
        let plies = mistakes.map { String($0.ply) }.joined(separator: ", ")
        return "analysis at depth \(depth): "
            + (mistakes.isEmpty ? "no mistakes" : "mistakes at plies \(plies) (type a number to go there)")
    }

    /// One line for the heading: each side's accuracy (see `Accuracy`), as
    /// `accuracy (moves within 0.50 pieces of the engine's): x 77% (24 of 31, average loss 0.64), o …`.
    var accuracySummary: String {
        let sides = [Side.x, .o].map { side in
            let accuracy = accuracy(of: side)
            return "\(side) \(Int(accuracy.percent.rounded()))% (\(accuracy.accurate) of \(accuracy.moves), "
                + "average loss \(Self.pieces(Int(accuracy.averageLoss.rounded()))))"
        }
        return "accuracy (moves within \(Self.pieces(Accuracy.accurateLoss)) pieces of the engine's): "
            + sides.joined(separator: ", ")
    }

    /// What to show under the position after `ply` moves: its evaluation and, if the move that
    /// led there was a mistake, the move the engine preferred.
    func lines(at ply: Int) -> [String] {
        guard evals.indices.contains(ply) else { return [] }
        var lines = [" eval " + Self.text(evals[ply])]
        if ply > 0, let mistake = mistakes.first(where: { $0.ply == ply }) {
            lines.append(
                " \(mistake.played) was a mistake (\(cost(of: mistake))): the engine preferred \(mistake.best)"
            )
        }
        return lines
    }

    /// What a mistake cost its mover, for a person: `lost 3.25 pieces`, or where a win by force
    /// was given up or a loss by force walked into, that (no count of pieces says it).
    /// `mistake.ply` must be a ply after the start, with an evaluation.
    func cost(of mistake: Mistake) -> String {
        let sign = mover(of: mistake.ply) == .x ? 1 : -1
        // Taken as at most a win each way, so that no number a server sends overflows.
        let (before, after) = (Self.withinAWin(evals[mistake.ply - 1]), Self.withinAWin(evals[mistake.ply]))
        if sign * before >= Self.won { return "gave up a win by force" }
        if sign * after <= -Self.won { return "walked into a loss by force" }
        return "lost \(Self.pieces(mistake.loss)) pieces"
    }

    /// `+1.25 (x is ahead)`, `x wins by force`, `0.00 (level)`.
    static func text(_ eval: Int) -> String {
        if eval >= won { return "x wins by force" }
        if eval <= -won { return "o wins by force" }
        let side = eval > 0 ? " (x is ahead)" : eval < 0 ? " (o is ahead)" : " (level)"
        return (eval > 0 ? "+" : eval < 0 ? "-" : "") + pieces(eval) + side
    }

    /// Centipieces as pieces with two decimals, without their sign: `125` and `-125` are `1.25`.
    /// Any number the server sends will do, `Int.min` too.
    static func pieces(_ centipieces: Int) -> String {
        let magnitude = centipieces.magnitude
        let hundredths = magnitude % 100
        return "\(magnitude / 100).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }
}
