import NanashiCore

/// Answers `hint`: the AI's choice for the side to move.
final class Adviser {
    /// The suggested move, or `nil` when the game is over.
    func hint(for position: Position) -> Move? {
        position.legalMoves().first
    }
}
