import NanashiCore

extension GameAnalysis {
    /// What the search of one position found: its score for the side to move, in `unit` (a win
    /// by force scores `won` or more), and the move it preferred.
    public typealias Finding = (score: Int, best: Move)

    /// The analysis of a game read off the search of each of its `positions` (the start, then
    /// the one after each of `moves`; `nil` where the game is over): every evaluation from x's
    /// side, clamped to `-won...won` (a game over scores its result), and as mistakes the moves
    /// that lost `mistakeThreshold` or more where the search preferred another. The first
    /// mover is the start's side to move.
    public init(game: Int64, depth: Int, positions: [Position], moves: [Move], findings: [Finding?]) {
        precondition(positions.count == moves.count + 1 && findings.count == positions.count)
        let evals = zip(positions, findings).map { position, finding in
            Self.eval(of: position, finding)
        }
        var mistakes: [Mistake] = []
        for (index, move) in moves.enumerated() {
            let sign = positions[index].sideToMove == .x ? 1 : -1
            let loss = sign * (evals[index] - evals[index + 1])
            guard loss >= Self.mistakeThreshold, let best = findings[index]?.best, best != move else {
                continue
            }
            mistakes.append(Mistake(ply: index + 1, played: move, best: best, loss: loss))
        }
        self.init(game: game, depth: depth, evals: evals, mistakes: mistakes)
        firstMover = positions[0].sideToMove
    }

    /// A position's evaluation from x's point of view, clamped: a game over is scored by its
    /// result.
    private static func eval(of position: Position, _ finding: Finding?) -> Int {
        guard let finding else {
            guard let winner = position.outcome?.winner else { return 0 }
            return winner == .x ? won : -won
        }
        let clamped = withinAWin(finding.score)
        return position.sideToMove == .x ? clamped : -clamped
    }
}
