/// When a search must stop: at a depth, after a number of nodes, after a time, on a clock, or never.
///
/// The limits combine: a search stops at the first one reached, so `.depth(4)` with a `movetime`
/// searches four plies unless the time runs out first. With none set, the search runs until
/// `Engine.stop()`.
public struct SearchLimits: Hashable, Sendable {
    /// The time left on both clocks, as a game with a time control gives it.
    public struct Clock: Hashable, Sendable {
        /// Time left for the side to move.
        public var own: Duration
        /// Time left for the other side.
        public var opponent: Duration
        /// Time added to the side to move's clock after each of its moves.
        public var ownIncrement: Duration
        /// Time added to the other side's clock after each of its moves.
        public var opponentIncrement: Duration
        /// Moves to play before the clock is refilled, when the time control has periods.
        public var movesToGo: Int?

        public init(
            own: Duration, opponent: Duration, ownIncrement: Duration = .zero,
            opponentIncrement: Duration = .zero, movesToGo: Int? = nil
        ) {
            self.own = own
            self.opponent = opponent
            self.ownIncrement = ownIncrement
            self.opponentIncrement = opponentIncrement
            self.movesToGo = movesToGo
        }
    }

    /// The deepest iteration to complete, in plies.
    public var depth: Int?
    /// The most nodes to visit.
    public var nodes: UInt64?
    /// Nodes after which no further iteration starts (the iteration under way is finished unless
    /// `nodes` ends it): a soft limit that spends fewer nodes on easy positions.
    public var softNodes: UInt64?
    /// The longest time to think.
    public var movetime: Duration?
    /// The game clocks, from which the search budgets its own time.
    public var clock: Clock?

    public init(
        depth: Int? = nil, nodes: UInt64? = nil, softNodes: UInt64? = nil, movetime: Duration? = nil,
        clock: Clock? = nil
    ) {
        self.depth = depth
        self.nodes = nodes
        self.softNodes = softNodes
        self.movetime = movetime
        self.clock = clock
    }

    /// Search exactly `depth` plies deep (iterations 1 to `depth`). Deterministic.
    public static func depth(_ depth: Int) -> SearchLimits { SearchLimits(depth: depth) }

    /// Search until `nodes` nodes have been visited. Deterministic.
    public static func nodes(_ nodes: UInt64) -> SearchLimits { SearchLimits(nodes: nodes) }

    /// Think for `time`, then answer.
    public static func movetime(_ time: Duration) -> SearchLimits { SearchLimits(movetime: time) }

    /// Search until an iteration ends past `soft` nodes, or `hard` nodes have been visited.
    /// Deterministic.
    public static func nodes(soft: UInt64, hard: UInt64) -> SearchLimits {
        SearchLimits(nodes: hard, softNodes: soft)
    }

    /// Search until `Engine.stop()` is called.
    public static let infinite = SearchLimits()

    /// Budget the time from the game clocks, never losing on time.
    public static func clock(
        own: Duration, opponent: Duration, ownIncrement: Duration = .zero,
        opponentIncrement: Duration = .zero, movesToGo: Int? = nil
    ) -> SearchLimits {
        SearchLimits(
            clock: Clock(
                own: own, opponent: opponent, ownIncrement: ownIncrement,
                opponentIncrement: opponentIncrement, movesToGo: movesToGo))
    }

    /// Whether only `stop()` ends the search.
    public var isInfinite: Bool {
        depth == nil && nodes == nil && softNodes == nil && movetime == nil && clock == nil
    }
}
