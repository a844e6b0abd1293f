import NanashiAI
import NanashiCore

extension ReplaySession {
    /// The `eval` of `nanashi replay`: `engine` searches `depth` plies (at most ten seconds).
    public static func search(_ engine: Engine, depth: Int) -> (Position) -> (
        best: Move, score: ThinkingLine.Score, depth: Int
    ) {
        { position in
            let result = engine.search(position, limits: SearchLimits(depth: depth, movetime: .seconds(10)))
            return (result.bestMove, AIOpponent.score(result.score), result.depth)
        }
    }
}
