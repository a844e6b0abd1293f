import NanashiCore

/// A move as it happened on the board: who played it, where it came from and went, and which
/// enemy pieces it converted. The renderer marks these squares so the last move can be followed.
public struct PlayedMove: Hashable, Sendable {
    /// The move as played.
    public let move: Move
    /// The side that played it.
    public let side: Side
    /// The square a jump left empty; `nil` for a clone (any neighbour could have been its source)
    /// and for a pass.
    public let origin: Square?
    /// The square the new or moved piece landed on; `nil` for a pass.
    public let destination: Square?
    /// The opponent's pieces that changed color.
    public let converted: Bitboard

    /// Describes `move` played in `position` (which is the position before the move).
    ///
    /// - Precondition: `move` is legal in `position`.
    public init(_ move: Move, in position: Position) {
        self.move = move
        side = position.sideToMove
        switch move {
        case .clone(let to):
            origin = nil
            destination = to
        case .jump(let from, let to):
            origin = from
            destination = to
        case .pass:
            origin = nil
            destination = nil
        }
        if let destination {
            converted = Bitboard.cloneTargets(of: destination) & position.pieces(of: side.opponent)
        } else {
            converted = .empty
        }
    }

    /// One line for people: `x a7c5, converted b6 c6`, `o f2` or `x passes`.
    public var summary: String {
        guard move != .pass else { return "\(side) passes" }
        var text = "\(side) \(move)"
        if !converted.isEmpty {
            text += ", converted " + converted.map(\.name).joined(separator: " ")
        }
        return text
    }
}
