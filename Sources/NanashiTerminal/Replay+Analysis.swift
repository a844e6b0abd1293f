import NanashiAI
import NanashiCore
import NanashiProtocol

extension Replay {
    /// The engine's analysis of the game, computed here as a server computes its own: every
    /// position searched `depth` plies by `engine`, each search standing alone.
    public func analysis(depth: Int, engine: Engine) -> GameAnalysis {
        let findings = positions.map { position -> GameAnalysis.Finding? in
            if position.isGameOver { return nil }
            let result = engine.analysisSearch(of: position, depth: depth)
            return (result.score, result.bestMove)
        }
        return GameAnalysis(
            game: 0, depth: depth, positions: positions, moves: record.moves, findings: findings)
    }
}
