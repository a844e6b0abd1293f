import NanashiCore

/// Select-then-move, as in the original game: a square holding your piece selects it and shows
/// where it can go; the next square plays the clone (one step) or the jump (two steps) to it.
/// Without a selection, an empty square is a clone to it, the usual short notation.
public enum Selection {
    /// What a square typed by the player does.
    public enum Action: Hashable, Sendable {
        /// Select this piece of the side to move.
        case select(Square)
        /// Drop the current selection (the selected square was typed again).
        case deselect
        /// Play this legal move.
        case play(Move)
    }

    /// Why a typed square does nothing; `description` is the message for the player.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The square holds the opponent's piece.
        case opponentPiece(Square, Side)
        /// The square is a blocker.
        case blocker(Square)
        /// The selected piece cannot reach the square.
        case outOfReach(from: Square, to: Square)
        /// No piece of the side to move is next to the square (and none is selected).
        case noCloneTo(Square, Side)
        /// The game is over.
        case gameOver

        public var description: String {
            switch self {
            case .opponentPiece(let square, let side):
                return "\(square) holds a piece of \(side); select one of yours"
            case .blocker(let square): return "\(square) is a blocker"
            case .outOfReach(let from, let to):
                return "\(from) cannot reach \(to): a clone goes one step, a jump two"
            case .noCloneTo(let square, let side):
                return
                    "no piece of \(side) is next to \(square); to jump, select a piece or type both squares"
            case .gameOver: return "the game is over"
            }
        }
    }

    /// What typing `square` does in `position` while `selected` (a piece of the side to move, or
    /// `nil`) is selected.
    public static func action(
        for square: Square, selected: Square?, in position: Position
    ) -> Result<Action, Problem> {
        guard !position.isGameOver else { return .failure(.gameOver) }
        let side = position.sideToMove
        if position[square] == side {
            return .success(square == selected ? .deselect : .select(square))
        }
        if let other = position[square] { return .failure(.opponentPiece(square, other)) }
        if position.blockers.contains(square) { return .failure(.blocker(square)) }
        if let selected {
            switch selected.distance(to: square) {
            case 1: return .success(.play(.clone(to: square)))
            case 2: return .success(.play(.jump(from: selected, to: square)))
            default: return .failure(.outOfReach(from: selected, to: square))
            }
        }
        let clone = Move.clone(to: square)
        return position.isLegal(clone) ? .success(.play(clone)) : .failure(.noCloneTo(square, side))
    }

    /// The empty squares the piece on `square` can clone to, and those it can jump to.
    public static func targets(of square: Square, in position: Position) -> (
        clones: Bitboard, jumps: Bitboard
    ) {
        (
            Bitboard.cloneTargets(of: square) & position.empty,
            Bitboard.jumpTargets(of: square) & position.empty
        )
    }
}
