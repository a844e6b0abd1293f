import Foundation
import NanashiAI
import NanashiCore

extension Match {
    /// The match `nanashi match` is asked for, each option as it was typed (`nil` where not
    /// given): the engines as `PlayerSpec` reads them, `tc` in seconds (`10+0.1`), `sprt` as
    /// `ELO0,ELO1`, `openings` a file of FENs. Without a seed, one is drawn.
    ///
    /// - Throws: `RangeError` or `MatchError`, one line each, for a bad option.
    public static func parsing(
        first: String, second: String, games: Int, depth: Int?, nodes: UInt64?, movetime: Int?, tc: String?,
        maxPlies: Int, concurrency: Int, sprt: String?, openings: String?, seed: UInt64?
    ) throws -> Match {
        try (1...100_000).check(games, "games")
        let play = try GamePlay(
            depth: depth, nodes: nodes, movetime: movetime, tc: tc, concurrency: concurrency,
            openings: openings)
        try (1...10_000).check(maxPlies, "max plies")
        let test = sprt.flatMap(SPRT.init)
        if let sprt, test == nil {
            throw MatchError("bad sprt '\(sprt)': use ELO0,ELO1 with ELO0 < ELO1, like 0,10")
        }
        return Match(
            first: try PlayerSpec(first), second: try PlayerSpec(second), games: games,
            openings: play.openings,
            limits: play.limits, timeControl: play.timeControl, maxPlies: maxPlies,
            concurrency: play.concurrency,
            sprt: test, seed: seed ?? UInt64.random(in: 0...UInt64.max))
    }
}
