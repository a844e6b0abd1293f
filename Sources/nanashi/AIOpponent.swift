import NanashiAI
import NanashiCore
import NanashiTerminal

/// The AI as an opponent in the terminal: thinks at its level, showing its progress on a real
/// terminal, and answers with a move.
final class AIOpponent: MoveSource {
    let engine: Engine
    private let level: Level
    private let random: RandomSource

    /// - Parameter random: the source of the level's randomness (seeded for repeatable games).
    init(engine: Engine, level: Level, random: RandomSource) {
        self.engine = engine
        self.level = level
        self.random = random
    }

    var label: String { "AI level \(level.number)" }

    func move(in game: Game, console: any TerminalConsole) -> Move {
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
    static func score(_ value: Int) -> ThinkingLine.Score {
        if value > Engine.winThreshold { return .win(plies: Engine.winScore - value) }
        if value < -Engine.winThreshold { return .loss(plies: Engine.winScore + value) }
        return .centipieces(value)
    }
}
