import NanashiCore

/// A playing strength for people, from `Level.range.lowerBound` (a beginner can win) to
/// `Level.range.upperBound` (full strength).
///
/// The lower levels search one or two plies and add a random bonus of up to `randomness`
/// centi-pieces to each move's score, so they make human-looking mistakes (level 1 often leaves a
/// capture of several pieces on the board); the middle levels search a fixed number of nodes;
/// the top level thinks for a second. Each level is meant to score about 60% to 85% against the
/// one below (docs/ENGINE.md, "Levels"); every level answers within `thinkTime`.
public struct Level: Hashable, Sendable, CustomStringConvertible {
    /// The levels that exist.
    public static let range: ClosedRange<Int> = 1...24

    /// Full strength.
    public static let strongest = Level(unchecked: range.upperBound)

    /// The level offered to someone who has not chosen one: two plies, a little noise.
    public static let suggested = Level(unchecked: 8)

    /// Every level, the weakest first.
    public static var all: [Level] { range.map(Level.init(unchecked:)) }

    /// The level's number, in `Level.range`.
    public let number: Int

    /// The level numbered `number`, or `nil` outside `Level.range`.
    public init?(_ number: Int) {
        guard Self.range.contains(number) else { return nil }
        self.number = number
    }

    /// The level numbered `number`, given by a person as `name` (`level`, `--ai`).
    ///
    /// - Throws: `RangeError` outside `Level.range`.
    public init(checking number: Int, _ name: String) throws(RangeError) {
        try Self.range.check(number, name)
        self.number = number
    }

    private init(unchecked number: Int) { self.number = number }

    /// The level's strength: about `elo` on the Elo scale of docs/ENGINE.md ("Levels"), on which
    /// level 1 is 500 by convention (not a measure against people). Fitted to 100-game matches
    /// between neighbours and wider pairs of levels (docs/notebook/2026-12-02-levels.md), rounded
    /// to 10, and to 50 from 2,000 up; `LevelRatingTests` keeps it the fit of those results.
    public var elo: Int {
        [
            500, 670, 780, 930, 1040, 1140, 1350, 1500, 1650, 1920, 2050, 2200,
            2400, 2600, 2850, 3050, 3250, 3450, 3650, 3800, 4050, 4250, 4500, 4700,
        ][number - 1]
    }

    /// `about N`, N the level's `elo`: its strength as people are shown it.
    public var about: String { "about \(elo)" }

    /// The deepest the level searches, or `nil` for no depth limit.
    public var depth: Int? {
        [1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3][safe: number - 1]
    }

    /// The most nodes the level searches a move, or `nil` for no node limit: 1.4 to 1.8 times as
    /// many a level up to 42,000, then about 2.3 times for levels 21 and 22 and three times for 23
    /// (with the thirteenth network, 1.85 times as many scored 84.5% at 2,400 nodes, and three
    /// times as many 92% at 24,000: a node is worth more below 100,000). Level 21 sits halfway, by ratio, between 20
    /// and 22, so that neither step passes 85% (docs/notebook/2026-12-engine.md, 2026-12-07).
    public var nodes: UInt64? {
        [1_000, 1_400, 2_500, 4_400, 7_700, 13_500, 24_000, 42_000, 95_000, 216_000, 650_000][
            safe: number - 13]
    }

    /// The most random bonus added to a move's score, in centi-pieces; 0 plays the best move found.
    public var randomness: Int {
        [800, 560, 400, 280, 200, 120, 350, 250, 150, 200, 120, 50][safe: number - 1] ?? 0
    }

    /// The longest the level thinks about one move.
    public var thinkTime: Duration {
        switch number {
        case 23...: .seconds(1)
        case 21...: .milliseconds(600)
        default: .milliseconds(300)
        }
    }

    /// The search limits of the level: its depth and nodes, bounded by its think time.
    public var limits: SearchLimits {
        SearchLimits(depth: depth, nodes: nodes, movetime: thinkTime)
    }

    /// The level's limits with `extra` applied on top: the smaller depth, nodes, soft nodes and move
    /// time of the two (a caller can make a level weaker or quicker, never stronger), and `extra`'s clock.
    public func limits(within extra: SearchLimits) -> SearchLimits {
        var limits = limits
        if let depth = extra.depth { limits.depth = min(depth, limits.depth ?? depth) }
        if let nodes = extra.nodes { limits.nodes = min(nodes, limits.nodes ?? nodes) }
        if let softNodes = extra.softNodes {
            limits.softNodes = min(softNodes, limits.softNodes ?? softNodes)
        }
        if let movetime = extra.movetime { limits.movetime = min(movetime, limits.movetime ?? movetime) }
        limits.clock = extra.clock
        return limits
    }

    public var description: String { "level \(number)" }
}

extension Engine {
    /// The move the engine plays at `level`: full strength at the top level, weaker and less
    /// predictable below. Answers within `level.thinkTime` (and within `limits` when given).
    ///
    /// - Parameters:
    ///   - extraLimits: further limits (a clock, a shorter time), applied on top of the level's.
    ///   - random: the source of the level's randomness; pass a seeded one for repeatable play.
    public func bestMove(
        for position: Position, level: Level, extraLimits: SearchLimits = .infinite,
        random: RandomSource = RandomSource(), onInfo: (SearchInfo) -> Void = { _ in }
    ) -> SearchResult {
        armForSearch()
        return chooseMove(
            for: position, level: level, extraLimits: extraLimits, random: random, onInfo: onInfo)
    }

    /// `bestMove(for:level:...)` without clearing a pending stop request.
    func chooseMove(
        for position: Position, level: Level, extraLimits: SearchLimits = .infinite,
        random: RandomSource = RandomSource(), onInfo: (SearchInfo) -> Void = { _ in }
    ) -> SearchResult {
        let limits = level.limits(within: extraLimits)
        if level.randomness > 0 {
            return run(
                position, limits: limits, onInfo: onInfo, rootNoise: (level.randomness, random))
        }
        return run(position, limits: limits, onInfo: onInfo)
    }
}

extension Array {
    /// The element at `index`, or `nil` past the end.
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
