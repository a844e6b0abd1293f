/// Thrown when a well-formed move is not legal in the position it was played in.
public struct IllegalMoveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What makes a move illegal.
    public enum Reason: String, Hashable, Sendable {
        /// The game is already over; no move, not even a pass, can be played.
        case gameOver = "the game is over"
        /// The destination holds a piece.
        case destinationOccupied = "the destination is occupied"
        /// The destination is a blocker.
        case destinationBlocked = "the destination is a blocker"
        /// A clone whose destination has none of the mover's pieces next to it.
        case noPieceInReach = "none of your pieces is next to the destination"
        /// A jump from an empty square or a blocker.
        case noPieceOnOrigin = "there is no piece on the origin"
        /// A jump of the opponent's piece.
        case notYourPiece = "the piece on the origin is not yours"
        /// A jump whose squares are not exactly two steps apart.
        case wrongDistance = "a jump must go exactly two squares"
        /// A pass while a move is available.
        case passNotAllowed = "you can only pass when you have no move"
    }

    /// The move that was refused.
    public let move: Move
    /// The position it was refused in, unchanged.
    public let position: Position
    /// Why it was refused.
    public let reason: Reason

    public var description: String { "illegal move \(move): \(reason.rawValue)" }
}
