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

    func reply(to game: Game, console: Console) -> MoveSourceReply {
        let side = game.current.sideToMove
        console.status("\(side) is thinking...")
        let result = engine.bestMove(for: game.current, level: level, random: random) { info in
            let best = info.pv.first.map { "\($0)" } ?? "-"
            console.status(
                "\(side) is thinking: depth \(info.depth), best so far \(best), \(Self.describe(info.score, for: side))"
            )
        }
        console.say("\(side) plays \(result.bestMove)")
        return .move(result.bestMove)
    }

    /// A search score for people: `x wins in 3`, or the material balance in pieces, `+1.50 for o`.
    static func describe(_ score: Int, for side: Side) -> String {
        if score > Engine.winThreshold { return "\(side) wins in \(Engine.winScore - score) plies" }
        if score < -Engine.winThreshold { return "\(side.opponent) wins in \(Engine.winScore + score) plies" }
        let sign = score < 0 ? "-" : "+"
        let size = abs(score)
        let hundredths = size % 100 < 10 ? "0\(size % 100)" : "\(size % 100)"
        return "score \(sign)\(size / 100).\(hundredths) for \(side)"
    }
}
