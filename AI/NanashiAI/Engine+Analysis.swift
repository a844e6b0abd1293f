import NanashiCore

extension Engine {
    /// The search of one position of a game under analysis, standing alone: the table and the
    /// history cleared first, then `depth` plies, so that the result does not depend on what was
    /// searched before. Where the side to move must pass, the position after the pass is searched
    /// instead (the engine scores a forced-pass root 0, which would call level a game one side
    /// leads by far): its score turned to the passing side's, its move the pass.
    ///
    /// - Precondition: the game is not over in `position`.
    public func analysisSearch(of position: Position, depth: Int) -> SearchResult {
        newGame()
        guard !position.hasMove, let passed = try? position.play(.pass) else {
            return search(position, limits: .depth(depth))
        }
        var result = search(passed, limits: .depth(depth))
        result.score = -result.score
        result.bestMove = .pass
        return result
    }
}
