/// How a game ended: the winner (or a draw) and why.
///
/// The one type for every kind of end: the rules' own (`Position.outcome`), and those that come
/// from a player or a clock (resignation, timeout, abandonment), which only the game around the
/// position knows about. Each reason's raw value is its name on the wire and in storage. On the wire
/// it is `{"reason":"pieces","winner":"x"}`, the winner `null` for a draw.
public struct Outcome: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Why the game is over.
    public enum Reason: String, Hashable, Sendable, CaseIterable, Codable {
        /// A side has no pieces left.
        case noPieces = "pieces"
        /// No empty square is within reach of any piece: the board is full, or the holes left
        /// cannot be reached. The side with more pieces wins.
        case lockedBoard = "locked"
        /// 100 plies without a clone: a draw.
        case fiftyMoveRule = "fifty"
        /// The loser gave up.
        case resignation = "resign"
        /// The loser's clock ran out.
        case timeout = "timeout"
        /// The loser left the game and did not come back in time.
        case abandonment = "abandon"
        /// A side made no first move in time: the game is called off, unrated.
        case aborted = "aborted"
        /// The loser played a move the rules do not allow. Only a match between engines ends so:
        /// a server refuses such a move and the game goes on.
        case illegalMove = "illegal"
        /// The referee of a match between engines called a draw after its most plies.
        case adjudication = "adjudicated"
        /// Both players agreed to a draw.
        case agreement = "agreement"
    }

    /// The side that won, or `nil` for a draw.
    public let winner: Side?
    /// Why the game ended.
    public let reason: Reason

    public init(winner: Side?, reason: Reason) {
        self.winner = winner
        self.reason = reason
    }

    /// `side` resigned.
    public static func resignation(by side: Side) -> Outcome {
        Outcome(winner: side.opponent, reason: .resignation)
    }

    /// `x`, `o` or `draw`, then the reason: `x pieces`.
    public var description: String { "\(winner?.rawValue ?? "draw") \(reason.rawValue)" }

    private enum CodingKeys: String, CodingKey { case winner, reason }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        winner = try container.decodeIfPresent(Side.self, forKey: .winner)
        reason = try container.decode(Reason.self, forKey: .reason)
    }

    /// Writes `"winner":null` for a draw rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(winner, forKey: .winner)
        try container.encode(reason, forKey: .reason)
    }
}

extension Position {
    /// How the game ended, or `nil` while it goes on.
    ///
    /// In order of precedence: a side without pieces loses; a locked board goes to the side with
    /// more pieces; a halfmove clock of 100 or more is a draw.
    @inlinable
    public var outcome: Outcome? {
        if xBits == 0 || oBits == 0 {
            return Outcome(winner: xBits == oBits ? nil : (xBits == 0 ? .o : .x), reason: .noPieces)
        }
        if isLocked {
            let x = xBits.nonzeroBitCount
            let o = oBits.nonzeroBitCount
            return Outcome(winner: x == o ? nil : (x > o ? .x : .o), reason: .lockedBoard)
        }
        if halfmoveClock >= 100 { return Outcome(winner: nil, reason: .fiftyMoveRule) }
        return nil
    }

    /// Whether the game is over.
    @inlinable
    public var isGameOver: Bool {
        isGameOver(reach: MoveGenerator.reach(of: xBits | oBits, open: empty.rawValue))
    }

    /// Whether the game is over, given `reach`: the empty squares that either side can move to
    /// (`MoveGenerator.reach`), for a caller that has worked them out already.
    @inlinable
    public func isGameOver(reach: UInt64) -> Bool {
        xBits == 0 || oBits == 0 || halfmoveClock >= 100 || reach == 0
    }

    /// No empty square lies within two steps of any piece, so nobody can ever move again.
    @inlinable
    var isLocked: Bool {
        MoveGenerator.reach(of: xBits | oBits, open: empty.rawValue) == 0
    }
}

extension Outcome {
    /// The PGN result: `1-0` when x won, `0-1` when o won, `1/2-1/2` for a draw (as python-ataxx).
    public var result: String { GameRecord.result(winner: winner) }

    /// PGN's standard `Termination` value: `normal` for the rules' ends, resignation and agreement, `time
    /// forfeit`, `abandoned` (abandonment, or no first move), `rules infraction` (an illegal move)
    /// or `adjudication`.
    public var termination: String {
        switch reason {
        case .noPieces, .lockedBoard, .fiftyMoveRule, .resignation, .agreement: "normal"
        case .timeout: "time forfeit"
        case .abandonment, .aborted: "abandoned"
        case .illegalMove: "rules infraction"
        case .adjudication: "adjudication"
        }
    }

    /// How the game ended, for people: `x wins (o has no pieces left)`, `draw (fifty-move rule: 100
    /// plies without a clone)`.
    public var verdict: String {
        let loser = winner?.opponent.rawValue ?? "nobody"
        let why =
            switch reason {
            case .noPieces: "\(loser) has no pieces left"
            case .lockedBoard: "no one can move: the board is locked"
            case .fiftyMoveRule: "fifty-move rule: 100 plies without a clone"
            case .resignation: "\(loser) resigned"
            case .timeout: "\(loser) ran out of time"
            case .abandonment: "\(loser) left the game"
            case .aborted: "aborted: a side made no first move in time; unrated"
            case .illegalMove: "\(loser) played an illegal move"
            case .adjudication: "adjudicated: too many moves"
            case .agreement: "by agreement"
            }
        return "\(winner.map { "\($0) wins" } ?? "draw") (\(why))"
    }
}
