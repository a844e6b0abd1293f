import NanashiAI
import NanashiCore
import NanashiProtocol

extension Replay {
    /// The engine's analysis of the game, computed here as a server computes its own: every
    /// position searched `depth` plies by `engine`, each search standing alone. `progress` is
    /// told the positions done and their number after each one.
    public func analysis(
        depth: Int, engine: Engine, progress: (_ done: Int, _ of: Int) -> Void = { _, _ in }
    ) -> GameAnalysis {
        let findings = positions.enumerated().map { index, position -> GameAnalysis.Finding? in
            defer { progress(index + 1, positions.count) }
            if position.isGameOver { return nil }
            let result = engine.analysisSearch(of: position, depth: depth)
            return (result.score, result.bestMove)
        }
        return GameAnalysis(
            game: 0, depth: depth, positions: positions, moves: record.moves, findings: findings)
    }
}
