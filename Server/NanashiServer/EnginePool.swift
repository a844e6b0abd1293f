import Foundation
import NanashiAI
import NanashiCore
import NanashiRuntime
import Synchronization

/// The engine inside the server: a few threads of its own, each search on one of them, never on
/// the threads that serve sockets and clocks.
///
/// At most `threads` searches run at once (one per core but one, by default), each on its own
/// `Engine`, made on the pool's thread when first needed (an engine's tables and network take a
/// moment to set up: a server that never plays the engine never pays it, and the threads that
/// serve sockets never wait for it). The others wait, and a free thread takes the search of the
/// owner (a client address) served longest ago, first come first served between equals: an
/// address with many games waiting does not hold up another's one. The queue is not bounded for
/// searches of games in progress (a game is never dropped): the bound, `maximumWaiting`, is
/// what `hasRoom` tells those about to start a new engine game or analysis. A game that ends
/// has its search stopped (`stop(game:)`), waiting or running.
///
/// A search that widens (the strongest level's move) also takes the threads no other search is
/// using or waiting for, as helpers of its own (Lazy SMP). A search that comes meanwhile takes
/// them back at once: the wide search's helpers end and it goes on alone, so that the pool's
/// threads are never more than `threads` searching and no search waits for another's helpers.
final class EnginePool: Sendable {
    private let threads: WorkerThreads
    /// How many searches may run at once: the pool's threads.
    private let count: Int
    private let hashMegabytes: Int
    private let maximumWaiting: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>

    private struct State: Sendable {
        /// Every engine made so far, and those not searching now.
        var engines: [Engine] = []
        var idle: [Engine] = []
        /// The searches waiting for a thread, in the order they came.
        var waiting: [Job] = []
        /// The searches running, with their engines and the threads each was lent.
        var running: [Int: (job: Job, engine: Engine, lent: Int)] = [:]
        /// Threads lent to wide searches, all told.
        var lent = 0
        /// When each owner with a search waiting was last given a thread (a count of searches).
        var served: [String: Int] = [:]
        var lastJob = 0
        var searches = 0
        var stopped = false

        /// Of `count` threads, those neither searching, nor lent, nor wanted by a search waiting.
        func spare(of count: Int) -> Int { max(0, count - running.count - lent - waiting.count) }
    }

    /// One search asked for.
    private struct Job: Sendable {
        var number: Int
        var owner: String
        var game: Int64?
        var widens: Bool
        var work: @Sendable (Engine) -> SearchResult
        var wanted: @Sendable () -> Bool
        var continuation: CheckedContinuation<SearchResult, Never>
    }

    /// A pool of `threads` engines (at least one) with `hashMegabytes` of table each.
    init(
        threads: Int, maximumWaiting: Int, hashMegabytes: Int = 16,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        let count = max(1, threads)
        self.count = count
        self.hashMegabytes = hashMegabytes
        self.maximumWaiting = max(0, maximumWaiting)
        self.now = now
        state = Mutex(State())
        self.threads = WorkerThreads(count: count, name: "nanashi.engine", prepare: Self.yieldToOthers)
    }

    deinit { threads.stop() }

    /// Whether a new engine game or analysis may start: fewer than `maximumWaiting` searches wait.
    var hasRoom: Bool { state.withLock { !$0.stopped && $0.waiting.count < maximumWaiting } }
    /// Whether `stop()` was called: searches since answer at once, with no result.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Searches waiting for a thread, and running (for tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }
    var runningCount: Int { state.withLock { $0.running.count } }
    /// Threads lent to wide searches (for tests).
    var lentCount: Int { state.withLock { $0.lent } }

    /// The searches that may run at once: the pool's threads.
    var threadCount: Int { count }
    /// Threads neither searching, nor lent, nor wanted by a search waiting: what work that can
    /// be spread over several searches (an analysis) may take now without holding up another's.
    var spareThreads: Int { state.withLock { $0.spare(of: count) } }

    /// Searches finished since the pool started.
    var searches: Int { state.withLock { $0.searches } }

    /// The move the engine plays at `level`, thinking no longer than the level allows, nor than
    /// `clock` (the engine's own time less the time it waited in the queue) would. If `wanted`
    /// says no when its turn in the queue comes (its game ended meanwhile), it does not search
    /// and answers a pass at once. `owner` and `game`: as `search` takes them.
    func move(
        for position: Position, level: Level, clock: SearchLimits.Clock?, owner: String = "",
        game: Int64? = nil, wanted: @escaping @Sendable () -> Bool = { true }
    ) async -> Move {
        let queued = now()
        return await search(owner: owner, game: game, widens: level == .strongest, wanted: wanted) { engine in
            var limits = SearchLimits.infinite
            if var clock {
                let waited = (self.now() - queued).wholeMilliseconds
                clock.own = .milliseconds(max(1, clock.own.wholeMilliseconds - waited))
                limits.clock = clock
            }
            return engine.bestMove(for: position, level: level, extraLimits: limits)
        }.bestMove
    }

    /// The engine's search of `position` to exactly `depth` plies, on a table cleared first, so
    /// that the same position always gets the same answer.
    func evaluate(_ position: Position, depth: Int, owner: String = "") async -> SearchResult {
        await search(owner: owner) { engine in
            engine.newGame()
            return engine.search(position, limits: .depth(depth))
        }
    }

    /// Stops the searches running (they answer at once) and those waiting (they do not search).
    func stop() {
        let engines = state.withLock { state in
            state.stopped = true
            return state.engines
        }
        // Halted, not only stopped: a search that passed its check a moment ago and is about
        // to start (which clears a stop request) still ends at once.
        for engine in engines { engine.halt() }
        threads.stop()
    }

    /// Stops the searches of `game`, which ended: one waiting is not made (it answers a pass at
    /// once), one running returns its best move so far.
    func stop(game: Int64) {
        let (dropped, engines) = state.withLock { state in
            let dropped = state.waiting.filter { $0.game == game }
            state.waiting.removeAll { $0.game == game }
            return (dropped, state.running.values.filter { $0.job.game == game }.map(\.engine))
        }
        for engine in engines { engine.stop() }
        for job in dropped { job.continuation.resume(returning: Self.nothing) }
    }

    /// One search by `work` on a free engine; none (a pass at depth 0) if the pool is stopped or
    /// `wanted` says no when its turn comes. `owner` (a client's address): whose turn it is
    /// among the searches waiting, each owner's in turn; `game`: the game it is for, which
    /// `stop(game:)` names; `widens`: whether it takes the threads no other search needs.
    func search(
        owner: String = "", game: Int64? = nil, widens: Bool = false,
        wanted: @escaping @Sendable () -> Bool = { true },
        _ work: @escaping @Sendable (Engine) -> SearchResult
    ) async -> SearchResult {
        await withCheckedContinuation { continuation in
            // Submitted under the lock that `stop()` sets `stopped` under: a search either goes
            // in before the threads are told to stop (and is run) or answers at once.
            let submitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.lastJob += 1
                state.waiting.append(
                    Job(
                        number: state.lastJob, owner: owner, game: game, widens: widens, work: work,
                        wanted: wanted, continuation: continuation))
                threads.submit { self.runNext() }
                return true
            }
            if !submitted { continuation.resume(returning: Self.nothing) }
        }
    }

    /// Runs, on this worker thread, the search whose owner was served longest ago (the first
    /// of that owner's), on an idle engine (or a new one); with every thread searching, it
    /// takes back the threads lent to wide searches.
    private func runNext() {
        let taken = state.withLock { state -> (Job, Engine?, Bool, [Engine])? in
            guard let index = Self.next(in: state.waiting, served: state.served) else { return nil }
            let reclaimed = state.running.count + state.lent >= count ? Self.reclaimLent(&state) : []
            let job = state.waiting.remove(at: index)
            state.served[job.owner] = state.lastJob
            // Forgotten once nothing of theirs waits: the table holds only owners waiting.
            if !state.waiting.contains(where: { $0.owner == job.owner }) { state.served[job.owner] = nil }
            return (job, state.idle.popLast(), state.stopped, reclaimed)
        }
        // Taken by `stop(game:)` already: one thread job for each search, one search fewer.
        guard let (job, idle, stopped, reclaimed) = taken else { return }
        for engine in reclaimed { engine.releaseHelpers() }
        // Stopped while it waited (the game is halted), or no longer wanted: answer at once.
        guard !stopped, job.wanted() else {
            if let idle { state.withLock { $0.idle.append(idle) } }
            job.continuation.resume(returning: Self.nothing)
            return
        }
        // At most `threads` searches run at once, so at most that many engines are made.
        let engine = idle ?? made()
        // Helpers allowed before the threads are lent: a search that takes them back from now
        // on ends them, however early.
        engine.allowHelpers()
        let lent = state.withLock { state in
            // This thread counted as searching.
            let spare = job.widens ? max(0, state.spare(of: count) - 1) : 0
            state.lent += spare
            state.running[job.number] = (job, engine, spare)
            return spare
        }
        engine.threads = 1 + lent
        let result = job.work(engine)
        engine.threads = 1
        state.withLock { state in
            // What is still lent: none if another search took the threads back meanwhile.
            state.lent -= state.running[job.number]?.lent ?? 0
            state.running[job.number] = nil
            state.idle.append(engine)
            state.searches += 1
        }
        job.continuation.resume(returning: result)
    }

    /// Takes back every thread lent to a wide search; returns their engines, whose helpers are
    /// to be ended.
    private static func reclaimLent(_ state: inout State) -> [Engine] {
        var engines: [Engine] = []
        for (number, entry) in state.running where entry.lent > 0 {
            state.running[number]?.lent = 0
            engines.append(entry.engine)
        }
        state.lent = 0
        return engines
    }

    /// The owner of searches that go only when no other search waits (`BackgroundAnalysis`'s).
    static let backgroundOwner = "background"

    /// The index in `waiting` of the first search of the owner served longest ago (never:
    /// first of all); a search of `backgroundOwner` only when no other waits.
    private static func next(in waiting: [Job], served: [String: Int]) -> Int? {
        var best: (index: Int, served: Int)?
        var background: Int?
        for (index, job) in waiting.enumerated() {
            if job.owner == backgroundOwner {
                background = background ?? index
                continue
            }
            let last = served[job.owner] ?? 0
            if best == nil || last < best!.served { best = (index, last) }
        }
        return best?.index ?? background
    }

    /// The answer of a stopped pool: no search.
    private static let nothing = SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: [])

    /// A new engine, counted so that `stop()` reaches it.
    private func made() -> Engine {
        let engine = Engine(hashMegabytes: hashMegabytes)
        // A wide search's helpers yield to the threads serving sockets, as the pool's own do.
        engine.prepareHelperThread = Self.yieldToOthers
        state.withLock { state in
            // Made after `stop()` collected the engines: it halts itself.
            if state.stopped { engine.halt() }
            state.engines.append(engine)
        }
        return engine
    }

    /// Lowers the calling thread's scheduling priority, so that the threads serving sockets and
    /// clocks get a core first whenever both want one.
    @Sendable private static func yieldToOthers() {
        #if os(Linux)
            // On Linux a nice value is per thread; `who` 0 is the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #else
            Thread.current.threadPriority = 0.1
        #endif
    }
}
