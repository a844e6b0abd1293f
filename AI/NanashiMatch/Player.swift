import NanashiAI
import NanashiCore

/// One side of a game, as the referee sees it.
public protocol Player: AnyObject {
    var name: String { get }
    /// Forgets the last game.
    func newGame() throws
    /// The move to play in `position`, reached from `start` by `moves`.
    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) throws -> Move
    /// Lets go of what the player holds (an engine's process).
    func close()
}

/// A built-in level, searching in this process.
final class BuiltInPlayer: Player {
    let level: Level
    let engine = Engine()
    let random: RandomSource

    init(level: Level, random: RandomSource) {
        self.level = level
        self.random = random
    }

    var name: String { "level:\(level.number)" }

    func newGame() { engine.newGame() }

    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) -> Move {
        engine.bestMove(for: position, level: level, extraLimits: limits, random: random).bestMove
    }

    func close() {}
}
