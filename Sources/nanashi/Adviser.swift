import NanashiAI
import NanashiCore

/// Answers `hint` with the AI's choice for the side to move, searched to a fixed depth so that the
/// same position always gets the same hint (within a time cap for slow machines).
final class Adviser {
    private let engine: Engine

    /// - Parameter engine: the engine to think with (the opponent's own, when there is one).
    init(engine: Engine = Engine(hashMegabytes: 4)) {
        self.engine = engine
    }

    /// The suggested move, or `nil` when the game is over.
    func hint(for position: Position) -> Move? {
        guard !position.isGameOver else { return nil }
        return engine.search(position, limits: SearchLimits(depth: 4, movetime: .seconds(2))).bestMove
    }
}
