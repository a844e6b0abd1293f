import Foundation
import NanashiAI
import NanashiCore
import NanashiMatch

extension SPSA {
    /// How the games of a run are played.
    public struct Games: Sendable {
        /// The limits, the clock, the pairs played at a time, and where each pair starts (one
        /// of the openings, drawn at random for each iteration).
        public var play: GamePlay
        /// Seeds each iteration's signs, rounding and opening.
        public var seed: UInt64
        public var maxPlies = 400
    }

    /// The games `nanashi tune --spsa` is asked for, each option as typed (`nil` where not
    /// given), as `GamePlay` reads them; 20,000 nodes a move when no limit is given. Without a
    /// seed, one is drawn.
    ///
    /// - Throws: `RangeError` or `MatchError`, one line each, for a bad option.
    public static func games(
        nodes: UInt64?, movetime: Int?, tc: String?, concurrency: Int, openings: String?, seed: UInt64?
    ) throws -> Games {
        let limited = nodes != nil || movetime != nil || tc != nil
        let play = try GamePlay(
            nodes: limited ? nodes : 20_000, movetime: movetime, tc: tc, concurrency: concurrency,
            openings: openings)
        return Games(play: play, seed: seed ?? UInt64.random(in: 0...UInt64.max))
    }

    /// Plays the iterations left, `games.play.concurrency` pairs at a time, each pair from one opening
    /// with both colours; after each, takes its result in, calls `save` with the run so far and
    /// `line` with a line for the person (every 20th with the values). Returns the finished run.
    ///
    /// Iteration `k`'s signs, rounding and opening come from `games.seed` and `k` alone, so a run
    /// with one pair at a time plays the same games every time it is run or resumed.
    public func run(
        _ games: Games, save: @escaping @Sendable (SPSA) throws -> Void,
        line: @escaping @Sendable (String) -> Void
    ) throws -> SPSA {
        let shared = SharedRun(self)
        let workers = min(max(1, games.play.concurrency), max(1, iterations - completed))
        Concurrently.perform(workers) { _ in
            let up = FullStrengthPlayer(name: "up")
            let down = FullStrengthPlayer(name: "down")
            do {
                while let (k, state) = shared.nextIteration() {
                    let random = RandomSource(seed: games.seed &+ UInt64(k) &* 0x9E37_79B9_7F4A_7C15)
                    let signs = state.signs(from: random)
                    (up.parameters, down.parameters) = state.sides(iteration: k, signs: signs, random: random)
                    let openings = games.play.openings
                    let opening = openings[Int(random.next() % UInt64(openings.count))]
                    let result = try Self.playPair(up, down, from: opening, games)
                    try shared.record(iteration: k, signs: signs, result: result) { run in
                        try save(run)
                        line(Self.progressLine(run, result: result))
                    }
                }
            } catch {
                shared.fail(error)
            }
        }
        return try shared.finished()
    }

    /// The up side's points minus the down side's over two games from `opening`, up playing x
    /// first.
    static func playPair(
        _ up: FullStrengthPlayer, _ down: FullStrengthPlayer, from opening: Position, _ games: Games
    )
        throws -> Double
    {
        var result = 0.0
        for (x, o) in [(up, down), (down, up)] {
            let played = try Referee(
                x: x, o: o, limits: games.play.limits, timeControl: games.play.timeControl,
                maxPlies: games.maxPlies
            ).play(from: opening)
            guard let winner = played.outcome.winner else { continue }
            let upSide: Side = x === up ? .x : .o
            result += winner == upSide ? 1 : -1
        }
        return result
    }

    /// `iteration 40/1000: +1 (balance +6)`, and every 20th iteration the values.
    static func progressLine(_ run: SPSA, result: Double) -> String {
        var text =
            "iteration \(run.completed)/\(run.iterations): \(signed(result)) (balance \(signed(run.balance)))"
        if run.completed % 20 == 0 || run.completed == run.iterations {
            let values = run.parameters.map { "\($0.name)=\(String(format: "%.1f", $0.value))" }
            text += "\n  " + values.joined(separator: " ")
        }
        return text
    }

    private static func signed(_ value: Double) -> String {
        let text = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        return value > 0 ? "+" + text : text
    }
}

/// What a run's workers share, under a lock: the run so far, the next iteration, the first error.
private final class SharedRun: @unchecked Sendable {
    private let lock = NSLock()
    private var run: SPSA
    private var next: Int
    private var failure: (any Error)?

    init(_ run: SPSA) {
        self.run = run
        next = run.completed
    }

    /// The next iteration to play and the run as it stands, or `nil` when all are taken or a
    /// worker failed.
    func nextIteration() -> (Int, SPSA)? {
        lock.withLock {
            guard next < run.iterations, failure == nil else { return nil }
            next += 1
            return (next - 1, run)
        }
    }

    func record(iteration k: Int, signs: [Double], result: Double, then report: (SPSA) throws -> Void) throws
    {
        try lock.withLock {
            run.record(iteration: k, signs: signs, result: result)
            try report(run)
        }
    }

    func fail(_ error: any Error) {
        lock.withLock { failure = failure ?? error }
    }

    func finished() throws -> SPSA {
        try lock.withLock {
            if let failure { throw failure }
            return run
        }
    }
}
