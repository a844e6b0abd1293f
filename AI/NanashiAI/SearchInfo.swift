import NanashiCore

/// What the search knows after one completed iteration of iterative deepening.
public struct SearchInfo: Hashable, Sendable {
    /// The depth just completed, in plies.
    public var depth: Int
    /// The score in centi-pieces from the side to move's point of view; wins and losses are
    /// beyond `Engine.winScore - 1000` in size, higher for faster wins.
    public var score: Int
    /// Nodes visited since the search started.
    public var nodes: UInt64
    /// Time since the search started.
    public var time: Duration
    /// The principal variation: the best line found, starting with the move to play.
    public var pv: [Move]

    /// Nodes per second, or the node count when no measurable time passed.
    public var nodesPerSecond: UInt64 {
        let seconds = time.inSeconds
        return seconds > 0 ? UInt64(Double(nodes) / seconds) : nodes
    }
}
