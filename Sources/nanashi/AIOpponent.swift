import NanashiAI
import NanashiCore
import NanashiTerminal

/// The AI as an opponent in the terminal: thinks at its level, showing its progress on a real
/// terminal, and answers with a move.
final class AIOpponent: Opponent {
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

    func reply(to game: Game, console: Console) -> OpponentReply {
        let side = game.current.sideToMove
        console.status("\(side) is thinking...")
        let result = engine.bestMove(for: game.current, level: level, random: random) { info in
            let best = info.pv.first.map { "\($0)" } ?? "-"
            console.status(
                "\(side) is thinking: depth \(info.depth), best so far \(best), score \(info.score)")
        }
        console.say("\(side) plays \(result.bestMove)")
        return .move(result.bestMove)
    }
}
