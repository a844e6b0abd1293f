import Foundation
import NanashiAI
import NanashiCore
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct EnginePoolTests {
    /// An evaluation searches on a cleared table: the same answer as a fresh engine's, whatever
    /// the pool searched before.
    @Test func anEvaluationIsAFreshEnginesSearch() async throws {
        let pool = EnginePool(threads: 1, maximumWaiting: 4)
        let position = try Position.start.replaying(["f2", "b2", "g1e3"]).position
        _ = await pool.move(for: .start, level: Level(12)!, clock: nil)
        let evaluated = await pool.evaluate(position, depth: 3)
        let fresh = Engine().search(position, limits: .depth(3))
        #expect(evaluated == fresh)
        #expect(pool.searches == 2)
        pool.stop()
    }

    /// The engine's move at a level is legal; a stopped pool searches nothing, answers at once,
    /// and has no room for new games.
    @Test func aStoppedPoolAnswersAtOnceAndHasNoRoom() async throws {
        let pool = EnginePool(threads: 2, maximumWaiting: 1)
        #expect(pool.hasRoom)
        let move = await pool.move(for: .start, level: Level(3)!, clock: nil)
        #expect(Position.start.legalMoves().contains(move))
        pool.stop()
        #expect(!pool.hasRoom)
        #expect(await pool.evaluate(.start, depth: 30).depth == 0)
        #expect(pool.searches == 1)
    }

    /// A search whose game ended while it waited in the queue is not made: it answers a pass at
    /// once, and the engine it would have used searches the next.
    @Test func aSearchNoLongerWantedWhenItsTurnComesIsNotMade() async {
        let pool = EnginePool(threads: 1, maximumWaiting: 4)
        #expect(await pool.move(for: .start, level: Level(3)!, clock: nil, wanted: { false }) == .pass)
        #expect(pool.searches == 0)
        #expect(
            Position.start.legalMoves().contains(await pool.move(for: .start, level: Level(3)!, clock: nil)))
        #expect(pool.searches == 1)
        pool.stop()
    }

    /// A stop that comes as a search is about to start (its turn has come, the engine has not
    /// begun) still ends it after its first iteration: on an engine made before the stop and
    /// on one made after. (Such a search once ran to its depth, and a server's stop waited.)
    @Test(arguments: [false, true]) func aStopAsASearchStartsStillEndsIt(engineMadeBefore: Bool) async {
        let pool = EnginePool(threads: 1, maximumWaiting: 4)
        if engineMadeBefore { #expect(await pool.evaluate(.start, depth: 1).depth == 1) }
        // The pool is stopped as the search's turn comes, just before the engine begins.
        let stopNow: @Sendable () -> Bool = {
            pool.stop()
            return true
        }
        let result = await pool.search(wanted: stopNow) { $0.search(.start, limits: .depth(8)) }
        #expect(result.depth == 1)
        #expect(Position.start.isLegal(result.bestMove))
    }

    /// A free thread takes the search of the owner served longest ago: an owner with many
    /// searches waiting takes turns with one who has a single search, not all before it.
    @Test func ownersTakeTurns() async throws {
        let pool = EnginePool(threads: 1, maximumWaiting: 16)
        let gate = DispatchSemaphore(value: 0)
        let order = Order()
        let blocker = Task {
            await pool.search(owner: "z") { _ in
                gate.wait()
                return Self.nothing
            }
        }
        while pool.runningCount == 0 { await Task.yield() }
        var searches: [Task<SearchResult, Never>] = []
        for name in ["a1", "a2", "a3", "b1"] {
            let owner = String(name.prefix(1))
            searches.append(
                Task {
                    await pool.search(owner: owner) { _ in
                        order.names.withLock { $0.append(name) }
                        return Self.nothing
                    }
                })
            while pool.waitingCount < searches.count { await Task.yield() }
        }
        gate.signal()
        _ = await blocker.value
        for search in searches { _ = await search.value }
        #expect(order.names.withLock { $0 } == ["a1", "b1", "a2", "a3"])
        pool.stop()
    }

    /// A game that ends has its searches stopped: the one running returns its best move so far,
    /// long before its depth; the one waiting is never made.
    @Test func aGameThatEndsHasItsSearchesStopped() async throws {
        let pool = EnginePool(threads: 1, maximumWaiting: 16)
        let running = Task { await pool.search(game: 7) { $0.search(.start, limits: .depth(60)) } }
        while pool.runningCount == 0 { await Task.yield() }
        let waiting = Task { await pool.search(game: 7) { $0.search(.start, limits: .depth(60)) } }
        while pool.waitingCount == 0 { await Task.yield() }
        pool.stop(game: 7)
        #expect(await waiting.value.depth == 0)
        let stopped = await running.value
        #expect(stopped.depth < 60 && Position.start.isLegal(stopped.bestMove))
        #expect(pool.searches == 1)
        pool.stop()
    }

    /// A wide search (the strongest level's) takes the threads no other search uses as its
    /// helpers; a search that comes meanwhile takes them back at once (the wide search's helpers
    /// end, it goes on alone) and searches on one thread, without waiting for it.
    @Test func aWideSearchTakesTheIdleThreadsUntilAnotherSearchComes() async throws {
        let pool = EnginePool(threads: 3, maximumWaiting: 16)
        let gate = DispatchSemaphore(value: 0)
        let threads = Order()
        let wide = Task {
            await pool.search(widens: true) { engine in
                threads.names.withLock { $0.append("wide \(engine.threads)") }
                gate.wait()
                threads.names.withLock { $0.append("released \(engine.helpersAreReleased)") }
                return Self.nothing
            }
        }
        while pool.runningCount == 0 { await Task.yield() }
        #expect(pool.lentCount == 2)
        _ = await pool.search { engine in
            threads.names.withLock { $0.append("next \(engine.threads) \(engine.helpersAreReleased)") }
            return Self.nothing
        }
        #expect(pool.lentCount == 0)
        gate.signal()
        _ = await wide.value
        #expect(threads.names.withLock { $0 } == ["wide 3", "next 1 false", "released true"])
        #expect(pool.searches == 2)
        // A wide search after them has its threads again.
        let again = await pool.search(widens: true) { engine in
            SearchResult(
                bestMove: .pass, score: engine.threads, depth: engine.helpersAreReleased ? 1 : 0, nodes: 0,
                pv: [])
        }
        #expect(again.score == 3 && again.depth == 0)
        pool.stop()
    }

    /// A wide search leaves the threads of the searches running to them.
    @Test func aWideSearchTakesOnlyTheThreadsLeft() async throws {
        let pool = EnginePool(threads: 3, maximumWaiting: 16)
        let gate = DispatchSemaphore(value: 0)
        let running = Task {
            await pool.search { _ in
                gate.wait()
                return Self.nothing
            }
        }
        while pool.runningCount == 0 { await Task.yield() }
        let wide = await pool.search(widens: true) { engine in
            SearchResult(bestMove: .pass, score: engine.threads, depth: 0, nodes: 0, pv: [])
        }
        #expect(wide.score == 2)
        gate.signal()
        _ = await running.value
        // The strongest level's move, on the threads it was lent, is legal.
        let clock = SearchLimits.Clock(own: .milliseconds(300), opponent: .milliseconds(300))
        #expect(Position.start.isLegal(await pool.move(for: .start, level: .strongest, clock: clock)))
        pool.stop()
    }

    /// The names of the searches made, in the order made.
    private final class Order: Sendable {
        let names = Mutex<[String]>([])
    }

    private static let nothing = SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: [])

    /// No room once `maximumWaiting` searches wait: with none allowed to wait, never room.
    @Test func aPoolThatMayQueueNothingHasNoRoom() {
        let pool = EnginePool(threads: 1, maximumWaiting: 0)
        #expect(!pool.hasRoom)
        pool.stop()
    }
}
