import NanashiCore

/// How a game ended, including by resignation, timeout or abandonment (which the rules'
/// `Outcome` does not know about).
public struct GameOver: Hashable, Sendable {
    /// Why the game ended.
    public enum Reason: String, Hashable, Sendable {
        case noPieces = "no pieces"
        case lockedBoard = "locked board"
        case fiftyMoveRule = "fifty-move rule"
        case resignation = "resignation"
        /// The loser's clock ran out (online play).
        case timeout = "timeout"
        /// The loser left the game and did not come back (online play).
        case abandonment = "abandonment"
        /// A side made no first move in time; the game is unrated (online play).
        case aborted = "aborted"
    }

    /// The winner, or `nil` for a draw.
    public let winner: Side?
    /// Why it ended.
    public let reason: Reason

    public init(winner: Side?, reason: Reason) {
        self.winner = winner
        self.reason = reason
    }

    /// The end the rules declare in `outcome`.
    public init(_ outcome: Outcome) {
        winner = outcome.winner
        switch outcome.reason {
        case .noPieces: reason = .noPieces
        case .lockedBoard: reason = .lockedBoard
        case .fiftyMoveRule: reason = .fiftyMoveRule
        }
    }

    /// `side` resigned.
    public static func resignation(by side: Side) -> GameOver {
        GameOver(winner: side.opponent, reason: .resignation)
    }

    /// The PGN result: `1-0` when x won, `0-1` when o won, `1/2-1/2` for a draw.
    public var result: String { GameRecord.result(winner: winner) }

    /// The lines shown when the game is over, given the final position:
    ///
    ///     game over: x wins (o has no pieces left)
    ///     final count: x 12, o 0
    public func summary(final position: Position) -> String {
        let why: String
        switch reason {
        case .noPieces: why = "\(winner?.opponent.rawValue ?? "nobody") has no pieces left"
        case .lockedBoard: why = "no one can move: the board is locked"
        case .fiftyMoveRule: why = "fifty-move rule: 100 moves without a clone"
        case .resignation: why = "\(winner?.opponent.rawValue ?? "nobody") resigned"
        case .timeout: why = "\(winner?.opponent.rawValue ?? "nobody") ran out of time"
        case .abandonment: why = "\(winner?.opponent.rawValue ?? "nobody") left the game"
        case .aborted: why = "aborted: a side made no first move in time; unrated"
        }
        let verdict = winner.map { "\($0) wins" } ?? "draw"
        let x = position.pieces(of: .x).count
        let o = position.pieces(of: .o).count
        return "game over: \(verdict) (\(why))\nfinal count: x \(x), o \(o)\n"
    }
}
