import NanashiCore

extension Outcome {
    /// The lines shown when the game is over, given the final position:
    ///
    ///     game over: x wins (o has no pieces left)
    ///     final count: x 12, o 0
    public func summary(final position: Position) -> String {
        let loser = winner?.opponent.rawValue ?? "nobody"
        let why =
            switch reason {
            case .noPieces: "\(loser) has no pieces left"
            case .lockedBoard: "no one can move: the board is locked"
            case .fiftyMoveRule: "fifty-move rule: 100 moves without a clone"
            case .resignation: "\(loser) resigned"
            case .timeout: "\(loser) ran out of time"
            case .abandonment: "\(loser) left the game"
            case .aborted: "aborted: a side made no first move in time; unrated"
            case .illegalMove: "\(loser) played an illegal move"
            case .adjudication: "adjudicated: too many moves"
            }
        let verdict = winner.map { "\($0) wins" } ?? "draw"
        let x = position.pieces(of: .x).count
        let o = position.pieces(of: .o).count
        return "game over: \(verdict) (\(why))\nfinal count: x \(x), o \(o)\n"
    }
}
