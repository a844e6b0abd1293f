/// Scores as the transposition table keeps them.
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
}
