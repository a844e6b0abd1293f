import Foundation
import NanashiAI
import NanashiCore
import Synchronization

/// The engine inside the server: a few threads of its own, each search on one of them, never on
/// the threads that serve sockets and clocks.
///
/// At most `threads` searches run at once (one per core but one, by default), each on its own
/// `Engine`; the others wait in a queue, in the order they came. The queue is not bounded for
/// searches of games in progress (a game is never dropped): the bound, `maximumWaiting`, is
/// what `hasRoom` tells those about to start a new engine game or analysis.
final class EnginePool: Sendable {
    private let threads: WorkerThreads
    private let engines: [Engine]
    private let maximumWaiting: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>

    private struct State: Sendable {
        var idle: [Engine]
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
        engines = (0..<count).map { _ in Engine(hashMegabytes: hashMegabytes) }
        self.maximumWaiting = max(0, maximumWaiting)
        self.now = now
        state = Mutex(State(idle: engines))
        self.threads = WorkerThreads(count: count, name: "nanashi.engine", prepare: Self.yieldToOthers)
    }

    deinit { threads.stop() }

    /// Whether a new engine game or analysis may start: fewer than `maximumWaiting` searches wait.
    var hasRoom: Bool { state.withLock { !$0.stopped && $0.waiting < maximumWaiting } }

    /// Searches finished since the pool started.
    var searches: Int { state.withLock { $0.searches } }

    /// The move the engine plays at `level`, thinking no longer than the level allows, nor than
    /// `clock` (the engine's own time less the time it waited in the queue) would.
    func move(for position: Position, level: Level, clock: SearchLimits.Clock?) async -> Move {
        let queued = now()
        return await search { engine in
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
        state.withLock { $0.stopped = true }
        for engine in engines { engine.stop() }
        threads.stop()
    }

    private func search(_ work: @escaping @Sendable (Engine) -> SearchResult) async -> SearchResult {
        state.withLock { $0.waiting += 1 }
        return await withCheckedContinuation { continuation in
            threads.submit {
                let engine = self.state.withLock { state -> Engine? in
                    state.waiting -= 1
                    return state.stopped ? nil : state.idle.popLast()
                }
                // Stopped (or, impossibly, no engine free): the game is halted; answer at once.
                guard let engine else {
                    continuation.resume(
                        returning: SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: []))
                    return
                }
                let result = work(engine)
                self.state.withLock {
                    $0.idle.append(engine)
                    $0.searches += 1
                }
                continuation.resume(returning: result)
            }
        }
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
