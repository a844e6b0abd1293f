import NanashiCore

/// Scores and moves as the transposition table keeps them.
extension Search {
    /// Wins are stored relative to the node rather than the root, so that a stored win is still
    /// the right distance away when the position is met at another ply.
    @inline(__always)
    static func scoreForTable(_ score: Int, ply: Int) -> Int {
        score >= Engine.winThreshold ? score + ply : (score <= -Engine.winThreshold ? score - ply : score)
    }

    @inline(__always)
    static func scoreFromTable(_ score: Int, ply: Int) -> Int {
        score >= Engine.winThreshold ? score - ply : (score <= -Engine.winThreshold ? score + ply : score)
    }

    /// The move a node leaves in the table: the one that scored best, unless none reached alpha
    /// (an upper bound). The best of moves that all fell short says little of which is best, and
    /// the move the table held before, if any, stays to be tried first next time.
    @inline(__always)
    static func moveForTable(best: PackedMove, table: PackedMove, bound: TranspositionTable.Bound)
        -> PackedMove
    {
        bound == .upper && table != MoveCode.none ? table : best
    }
}
