import Foundation
import NanashiAI
import NanashiCore

/// A match between two engines: each opening once with each colour, games played `concurrency`
/// at a time (each worker with its own pair of players), stopped early when an SPRT decides.
public struct Match: Sendable {
    public var first: PlayerSpec
    public var second: PlayerSpec
    /// Games to play, rounded up to an even number.
    public var games: Int
    /// Where the games start, in order, used again from the start when there are fewer.
    public var openings: [Position]
    public var limits: SearchLimits
    public var timeControl: TimeControl?
    public var maxPlies: Int
    public var concurrency: Int
    public var sprt: SPRT?
    /// Seeds the built-in levels' randomness.
    public var seed: UInt64

    public init(
        first: PlayerSpec, second: PlayerSpec, games: Int, openings: [Position] = Openings.book,
        limits: SearchLimits = .infinite, timeControl: TimeControl? = nil, maxPlies: Int = 400,
        concurrency: Int = 1, sprt: SPRT? = nil, seed: UInt64 = 0
    ) {
        self.first = first
        self.second = second
        self.games = games
        self.openings = openings
        self.limits = limits
        self.timeControl = timeControl
        self.maxPlies = maxPlies
        self.concurrency = concurrency
        self.sprt = sprt
        self.seed = seed
    }

    /// One game of the match: where it starts and who has x.
    public struct ScheduledGame: Hashable, Sendable {
        public var opening: Position
        public var firstPlaysX: Bool
        /// From 1.
        public var round: Int
    }

    /// A finished game and the standing after it.
    public struct Report: Sendable {
        public var game: ScheduledGame
        public var played: PlayedGame
        public var xName: String
        public var oName: String
        /// The score so far, this game included.
        public var tally: Tally

        /// The game's result from the first engine's point of view.
        public var result: Tally.Result { Tally.Result(played.outcome, firstPlaysX: game.firstPlaysX) }
    }

    /// The round that plays the same opening as `round` with the colours swapped.
    static func partner(of round: Int) -> Int { round % 2 == 1 ? round + 1 : round - 1 }

    /// The games in the order they start: game 2k gives the first engine x, game 2k+1 replays the
    /// same opening with the colours swapped.
    public var schedule: [ScheduledGame] {
        let pairs = (games + 1) / 2
        let chosen = Openings.take(pairs, from: openings)
        return (0..<chosen.count * 2).map {
            ScheduledGame(opening: chosen[$0 / 2], firstPlaysX: $0 % 2 == 0, round: $0 + 1)
        }
    }

    /// Plays the match, but for the games `journal` holds (which count as played), calling
    /// `onGame` (one call at a time) after each game; returns the final score. Throws the first
    /// engine failure, after the games under way have ended.
    public func run(
        after journal: MatchJournal = MatchJournal(), onGame: @escaping @Sendable (Report) -> Void
    )
        throws -> Tally
    {
        let schedule = schedule.filter { journal.results[$0.round] == nil }
        let state = SharedState(schedule: schedule, sprt: sprt, journal: journal)
        let seeds = RandomSource(seed: seed)
        let workerSeeds = (0..<max(1, concurrency)).map { _ in seeds.next() }
        let (first, second, limits, timeControl, maxPlies) = (first, second, limits, timeControl, maxPlies)
        // No engine is started for a match its journal has already decided.
        let decided = sprt.map { $0.decision(journal.tally) != .undecided } ?? false
        let workers = decided ? 0 : min(max(1, concurrency), schedule.count)
        Concurrently.perform(workers) { worker in
            do {
                let random = RandomSource(seed: workerSeeds[worker])
                let players = (try first.makePlayer(random: random), try second.makePlayer(random: random))
                defer {
                    players.0.close()
                    players.1.close()
                }
                while let game = state.nextGame() {
                    let (x, o) = game.firstPlaysX ? players : (players.1, players.0)
                    let played = try Referee(
                        x: x, o: o, limits: limits, timeControl: timeControl, maxPlies: maxPlies
                    ).play(from: game.opening)
                    state.finish(game, played: played) { tally in
                        onGame(Report(game: game, played: played, xName: x.name, oName: o.name, tally: tally))
                    }
                }
            } catch {
                state.fail(error)
            }
        }
        if let failure = state.failure { throw failure }
        return state.tally
    }
}

/// What the match's workers share, under a lock: the next game, the score, the first error.
private final class SharedState: @unchecked Sendable {
    private let lock = NSLock()
    private let schedule: [Match.ScheduledGame]
    private let sprt: SPRT?
    private var next = 0
    private(set) var failure: Error?
    private(set) var tally: Tally
    /// The results of games whose pair's other game has not ended, by round.
    private var unpaired: [Int: Tally.Result]

    init(schedule: [Match.ScheduledGame], sprt: SPRT?, journal: MatchJournal) {
        self.schedule = schedule
        self.sprt = sprt
        tally = journal.tally
        unpaired = journal.results.filter { journal.results[Match.partner(of: $0.key)] == nil }
    }

    /// The next game to play, or `nil` when all are taken, a worker failed or the SPRT decided.
    func nextGame() -> Match.ScheduledGame? {
        lock.withLock {
            guard next < schedule.count, failure == nil else { return nil }
            if let sprt, sprt.decision(tally) != .undecided { return nil }
            next += 1
            return schedule[next - 1]
        }
    }

    func finish(_ game: Match.ScheduledGame, played: PlayedGame, report: (Tally) -> Void) {
        lock.withLock {
            let result = Tally.Result(played.outcome, firstPlaysX: game.firstPlaysX)
            tally.add(result)
            if let other = unpaired.removeValue(forKey: Match.partner(of: game.round)) {
                tally.addPair(result, other)
            } else {
                unpaired[game.round] = result
            }
            report(tally)
        }
    }

    func fail(_ error: Error) {
        lock.withLock { failure = failure ?? error }
    }
}
