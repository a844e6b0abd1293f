import NanashiCore

/// The answer of a search: the move to play, with what the search found out about it.
public struct SearchResult: Hashable, Sendable {
    /// The move to play; legal in the searched position (`.pass` when forced).
    public var bestMove: Move
    /// The score in centi-pieces from the side to move's point of view.
    public var score: Int
    /// The deepest completed iteration.
    public var depth: Int
    /// Nodes visited.
    public var nodes: UInt64
    /// The principal variation, starting with `bestMove`.
    public var pv: [Move]

    public init(bestMove: Move, score: Int, depth: Int, nodes: UInt64, pv: [Move]) {
        self.bestMove = bestMove
        self.score = score
        self.depth = depth
        self.nodes = nodes
        self.pv = pv
    }
}
