import NanashiAI
import NanashiCore

/// The AI as an opponent in the terminal: thinks at its level, showing its progress on a real
/// terminal, and answers with a move.
public final class AIOpponent: MoveSource {
    private let engine = Engine()
    private let level: Level
    private let random: RandomSource

    /// - Parameter random: the source of the level's randomness (seeded for repeatable games).
    public init(level: Level, random: RandomSource) {
        (self.level, self.random) = (level, random)
    }

    /// Forgets what the engine learnt in the game before (its hash table, its history).
    public func newGame() { engine.newGame() }

    public var label: String { "AI level \(level.number)" }

    public var rating: Int? { level.elo }

    public func move(in game: Game, console: any TerminalConsole) -> Move {
        let side = game.current.sideToMove
        console.status(ThinkingLine.started(by: side))
        let result = engine.bestMove(for: game.current, level: level, random: random) { info in
            console.status(
                ThinkingLine.progress(
                    by: side, depth: info.depth, best: info.pv.first, score: Self.score(info.score)))
        }
        console.say("\(side) plays \(result.bestMove)")
        return result.bestMove
    }

    /// The engine's score, with wins and losses told apart from material.
    public static func score(_ value: Int) -> ThinkingLine.Score {
        if value > Engine.winThreshold { return .win(plies: Engine.winScore - value) }
        if value < -Engine.winThreshold { return .loss(plies: Engine.winScore + value) }
        return .centipieces(value)
    }
}
