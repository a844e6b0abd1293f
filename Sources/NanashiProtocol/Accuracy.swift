import NanashiCore

/// How closely one side's moves in an analysed game followed the engine's choice: how many of
/// its moves lost at most `Accuracy.accurateLoss` (half a piece) by the analysis, and the
/// average loss of its moves.
///
/// A move's loss is what its mover's evaluation fell from the position before the move to the
/// position after it, both searched to the analysis's depth: `0` for the move the engine would
/// play (or a better one), and at most `Accuracy.lossCap`, so that one move thrown away in a
/// position already won or lost does not outweigh a whole game. Sides alternate from x at the
/// first ply (a pass is a ply), so a forced pass counts as an accurate move with no loss.
public struct Accuracy: Hashable, Sendable {
    /// A move that loses at most this much, in `GameAnalysis.unit` (50: half a piece), is
    /// accurate.
    public static let accurateLoss = 50
    /// One move's loss counts at most this much (10 pieces) in `totalLoss`.
    public static let lossCap = 1_000

    /// The side's moves counted.
    public var moves: Int
    /// Those that lost at most `accurateLoss`.
    public var accurate: Int
    /// The sum of the moves' losses (each at most `lossCap`), in `GameAnalysis.unit`.
    public var totalLoss: Int

    public init(moves: Int = 0, accurate: Int = 0, totalLoss: Int = 0) {
        self.moves = moves
        self.accurate = accurate
        self.totalLoss = totalLoss
    }

    /// The share of accurate moves, 0 to 100 (0 without moves).
    public var percent: Double { moves == 0 ? 0 : 100 * Double(accurate) / Double(moves) }

    /// The average loss per move, in `GameAnalysis.unit` (0 without moves).
    public var averageLoss: Double { moves == 0 ? 0 : Double(totalLoss) / Double(moves) }

    /// Both counts together: several games' accuracy as one.
    public static func + (left: Accuracy, right: Accuracy) -> Accuracy {
        Accuracy(
            moves: left.moves + right.moves, accurate: left.accurate + right.accurate,
            totalLoss: left.totalLoss + right.totalLoss)
    }

    /// The loss of one move, from its mover's point of view: the evaluations (x's point of view)
    /// before and after it, each taken within `-GameAnalysis.won...GameAnalysis.won` (any
    /// integer a server sends will do).
    public static func loss(of mover: Side, before: Int, after: Int) -> Int {
        let (before, after) = (GameAnalysis.withinAWin(before), GameAnalysis.withinAWin(after))
        let fall = mover == .x ? before - after : after - before
        return min(max(fall, 0), lossCap)
    }
}

extension GameAnalysis {
    /// The accuracy of `side`'s moves, read off the evaluations (see `Accuracy`).
    public func accuracy(of side: Side) -> Accuracy {
        var accuracy = Accuracy()
        guard evals.count > 1 else { return accuracy }
        for index in 0..<(evals.count - 1) {
            let mover = self.mover(of: index + 1)
            guard mover == side else { continue }
            let loss = Accuracy.loss(of: mover, before: evals[index], after: evals[index + 1])
            accuracy.moves += 1
            accuracy.totalLoss += loss
            if loss <= Accuracy.accurateLoss { accuracy.accurate += 1 }
        }
        return accuracy
    }
}

extension GameAnalysis {
    /// An evaluation taken within `-won...won`: what a search or a server may send beyond it
    /// counts as a win, and no arithmetic on it overflows.
    public static func withinAWin(_ eval: Int) -> Int { min(max(eval, -won), won) }
}
