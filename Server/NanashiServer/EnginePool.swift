import Foundation
import NanashiAI
import NanashiCore
import Synchronization

/// The engine inside the server: a few threads of its own, each search on one of them, never on
/// the threads that serve sockets and clocks.
///
/// At most `threads` searches run at once (one per core but one, by default), each on its own
/// `Engine`, made on the pool's thread when first needed (an engine's tables and network take a
/// moment to set up: a server that never plays the engine never pays it, and the threads that
/// serve sockets never wait for it); the others wait in a queue, in the order they came. The queue is not bounded for
/// searches of games in progress (a game is never dropped): the bound, `maximumWaiting`, is
/// what `hasRoom` tells those about to start a new engine game or analysis.
final class EnginePool: Sendable {
    private let threads: WorkerThreads
    private let hashMegabytes: Int
    private let maximumWaiting: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>

    private struct State: Sendable {
        /// Every engine made so far, and those not searching now.
        var engines: [Engine] = []
        var idle: [Engine] = []
        var waiting = 0
        var searches = 0
        var stopped = false
    }

    /// A pool of `threads` engines (at least one) with `hashMegabytes` of table each.
    init(
        threads: Int, maximumWaiting: Int, hashMegabytes: Int = 16,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        let count = max(1, threads)
        self.hashMegabytes = hashMegabytes
        self.maximumWaiting = max(0, maximumWaiting)
        self.now = now
        state = Mutex(State())
        self.threads = WorkerThreads(count: count, name: "nanashi.engine", prepare: Self.yieldToOthers)
    }

    deinit { threads.stop() }

    /// Whether a new engine game or analysis may start: fewer than `maximumWaiting` searches wait.
    var hasRoom: Bool { state.withLock { !$0.stopped && $0.waiting < maximumWaiting } }

    /// Searches finished since the pool started.
    var searches: Int { state.withLock { $0.searches } }

    /// The move the engine plays at `level`, thinking no longer than the level allows, nor than
    /// `clock` (the engine's own time less the time it waited in the queue) would. If `wanted`
    /// says no when its turn in the queue comes (its game ended meanwhile), it does not search
    /// and answers a pass at once.
    func move(
        for position: Position, level: Level, clock: SearchLimits.Clock?,
        wanted: @escaping @Sendable () -> Bool = { true }
    ) async -> Move {
        let queued = now()
        return await search(wanted: wanted) { engine in
            var limits = SearchLimits.infinite
            if var clock {
                let waited = Int64((self.now() - queued).inMilliseconds)
                clock.own = .milliseconds(max(1, Int64(clock.own.inMilliseconds) - waited))
                limits.clock = clock
            }
            return engine.bestMove(for: position, level: level, extraLimits: limits)
        }.bestMove
    }

    /// The engine's search of `position` to exactly `depth` plies, on a table cleared first, so
    /// that the same position always gets the same answer.
    func evaluate(_ position: Position, depth: Int) async -> SearchResult {
        await search { engine in
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

    /// One search by `work` on a free engine, in the queue's order; none (a pass at depth 0)
    /// if the pool is stopped or `wanted` says no when its turn comes.
    func search(
        wanted: @escaping @Sendable () -> Bool = { true },
        _ work: @escaping @Sendable (Engine) -> SearchResult
    ) async -> SearchResult {
        await withCheckedContinuation { continuation in
            // Submitted under the lock that `stop()` sets `stopped` under: a search either goes
            // in before the threads are told to stop (and is run) or answers at once.
            let submitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.waiting += 1
                threads.submit { self.run(work, wanted: wanted, continuation) }
                return true
            }
            if !submitted { continuation.resume(returning: Self.nothing) }
        }
    }

    /// One search on this worker thread, on an idle engine (or a new one).
    private func run(
        _ work: @Sendable (Engine) -> SearchResult, wanted: @Sendable () -> Bool,
        _ continuation: CheckedContinuation<SearchResult, Never>
    ) {
        let (idle, stopped) = state.withLock { state in
            state.waiting -= 1
            return (state.idle.popLast(), state.stopped)
        }
        // Stopped while it waited (the game is halted), or no longer wanted: answer at once.
        guard !stopped, wanted() else {
            if let idle { state.withLock { $0.idle.append(idle) } }
            continuation.resume(returning: Self.nothing)
            return
        }
        // At most `threads` searches run at once, so at most that many engines are made.
        let engine = idle ?? made()
        let result = work(engine)
        state.withLock {
            $0.idle.append(engine)
            $0.searches += 1
        }
        continuation.resume(returning: result)
    }

    /// The answer of a stopped pool: no search.
    private static let nothing = SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: [])

    /// A new engine, counted so that `stop()` reaches it.
    private func made() -> Engine {
        let engine = Engine(hashMegabytes: hashMegabytes)
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

extension Duration {
    /// Whole milliseconds, rounded down.
    fileprivate var inMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
