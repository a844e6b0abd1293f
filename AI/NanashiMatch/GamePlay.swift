import Foundation
import NanashiAI
import NanashiCore

/// How engines' games are played, checked: each move's limits, the clock, how many games at
/// once and where they start. What `nanashi match` and `nanashi tune --spsa` share.
public struct GamePlay: Sendable {
    public var limits: SearchLimits
    public var timeControl: TimeControl?
    /// Games played at the same time.
    public var concurrency: Int
    /// Where the games start.
    public var openings: [Position]

    /// The games asked for, each option as it was typed (`nil` where not given): `tc` in seconds
    /// (`10+0.1`), `openings` a file of FENs (the built-in book without).
    ///
    /// - Throws: `RangeError` or `MatchError`, one line each, for a bad option.
    public init(
        depth: Int? = nil, nodes: UInt64?, movetime: Int?, tc: String?, concurrency: Int, openings: String?
    ) throws {
        if let depth { try (1...64).check(depth, "depth") }
        if let nodes, nodes == 0 { throw MatchError("bad nodes 0: use 1 or more") }
        if let movetime { try (1...3_600_000).check(movetime, "movetime", unit: "ms") }
        timeControl = tc.flatMap(TimeControl.init(seconds:))
        if let tc, timeControl == nil {
            throw MatchError("bad time control '\(tc)': use SECONDS+INCREMENT, like 10+0.1")
        }
        try (1...64).check(concurrency, "concurrency")
        self.concurrency = concurrency
        limits = SearchLimits(depth: depth, nodes: nodes, movetime: movetime.map { .milliseconds($0) })
        self.openings = try openings.map(Openings.read(file:)) ?? Openings.book
    }
}
