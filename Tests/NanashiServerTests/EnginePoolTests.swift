import NanashiAI
import NanashiCore
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

    /// No room once `maximumWaiting` searches wait: with none allowed to wait, never room.
    @Test func aPoolThatMayQueueNothingHasNoRoom() {
        let pool = EnginePool(threads: 1, maximumWaiting: 0)
        #expect(!pool.hasRoom)
        pool.stop()
    }
}
