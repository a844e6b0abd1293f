import Foundation
import NanashiCore
import NanashiTestSupport
import Synchronization
import Testing

@testable import NanashiAI

/// Swaps the colours of a FEN (pieces and side to move), giving the same problem for the other side.
private func swappingColours(_ fen: String) -> String {
    String(
        fen.map { character -> Character in
            switch character {
            case "x": return "o"
            case "o": return "x"
            default: return character
            }
        })
}

/// Each problem in both colours.
private func bothColours(_ cases: [(String, String)]) -> [(String, String)] {
    cases.flatMap { [($0.0, $0.1), (swappingColours($0.0), $0.1)] }
}

@Suite(.blocking) struct SearchTests {
    @Test(
        arguments: bothColours([
            // The jump into the ring of eight flips all of them.
            ("7/3x3/2ooo2/2o1o2/2ooo2/7/o5x x 0 1", "d6d4"),
            // A clone on b6 flips three, more than any other move.
            ("x6/2o4/1oo4/7/7/7/o5x x 0 1", "b6"),
        ]), [1, 2, 3] as [Int])
    func findsTheBiggestCapture(problem: (fen: String, expected: String), depth: Int) throws {
        let (fen, expected) = problem
        let position = try Position(fen: fen)
        let result = Engine().search(position, limits: .depth(depth))
        #expect(result.bestMove.description == expected)
        #expect(result.pv.first == result.bestMove)
    }

    @Test(arguments: bothColours([("7/3x3/2ooo2/2o1o2/2ooo2/7/6x x 0 1", "d6d4")]), [1, 2, 4] as [Int])
    func takesTheLastPiecesAndScoresTheWin(problem: (fen: String, expected: String), depth: Int) throws {
        let (fen, expected) = problem
        let position = try Position(fen: fen)
        let result = Engine().search(position, limits: .depth(depth))
        #expect(result.bestMove.description == expected)
        #expect(result.score == Engine.winScore - 1)
    }

    /// Cloning to a2 flips a3 but lets o jump d3b2 and flip every x piece; b2 flips a3 too and
    /// leaves o no square touching all of x.
    @Test(arguments: bothColours([("7/7/7/3o3/o2o3/7/x6 x 0 1", "a2")]), [2, 3, 4, 6] as [Int])
    func doesNotLeaveAllItsPiecesToBeCaptured(problem: (fen: String, losingMove: String), depth: Int) throws {
        let (fen, losingMove) = problem
        let position = try Position(fen: fen)
        let mover = position.sideToMove
        let result = Engine().search(position, limits: .depth(depth))
        #expect(result.bestMove.description != losingMove)
        #expect(result.score > -Engine.winThreshold)
        let after = try position.play(result.bestMove)
        for reply in after.legalMoves() {
            #expect(try !after.play(reply).pieces(of: mover).isEmpty, "\(reply) wipes out \(mover)")
        }
    }

    @Test(arguments: ["x-o4/---4/---4/7/7/7/7 x 0 1", "o-x4/---4/---4/7/7/7/7 o 0 1"])
    func passesWhenForced(fen: String) throws {
        let result = Engine().search(try Position(fen: fen), limits: .depth(6))
        #expect(result.bestMove == .pass)
    }

    /// An analysis scores a forced pass by the position after it, from the passing side: o's
    /// one piece is walled in and x is 7 pieces up, which the engine's own root score (0) hides.
    @Test func anAnalysisSearchScoresAForcedPassByThePositionAfterIt() throws {
        let walled = try Position(fen: "7/7/7/7/xxx4/xxx4/oxx4 o 0 1")
        #expect(!walled.hasMove && !walled.isGameOver)
        let result = Engine().analysisSearch(of: walled, depth: 2)
        let afterPass = Engine().search(try walled.play(.pass), limits: .depth(2))
        #expect(result.bestMove == .pass)
        #expect(result.score == -afterPass.score && result.score < -100, "\(result.score)")
    }

    /// Each analysis search stands alone: an engine that searched before finds what a new one
    /// finds, node for node.
    @Test func anAnalysisSearchForgetsEarlierSearches() throws {
        let position = try Position(fen: "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8")
        let used = Engine()
        _ = used.search(.start, limits: .depth(6))
        #expect(
            used.analysisSearch(of: position, depth: 5) == Engine().analysisSearch(of: position, depth: 5))
    }

    @Test func aFinishedGameGivesAPassAtDepthZero() throws {
        let result = Engine().search(try Position(fen: "7/7/7/7/7/7/x5x o 0 1"), limits: .depth(3))
        #expect(result.bestMove == .pass)
        #expect(result.depth == 0)
        #expect(result.nodes == 0)
    }

    @Test(arguments: [SearchLimits.depth(6), .nodes(20_000)])
    func searchesWithTheSameLimitsAgreeExactly(limits: SearchLimits) throws {
        let position = try Position(fen: "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8")
        let first = Engine().search(position, limits: limits)
        let second = Engine().search(position, limits: limits)
        #expect(first == second)
        #expect(position.isLegal(first.bestMove))
    }

    @Test func reportsEveryIterationInOrder() throws {
        var depths: [Int] = []
        var lastNodes: UInt64 = 0
        let result = Engine().search(.start, limits: .depth(5)) { info in
            depths.append(info.depth)
            #expect(info.nodes >= lastNodes)
            lastNodes = info.nodes
            #expect(!info.pv.isEmpty)
        }
        #expect(depths == [1, 2, 3, 4, 5])
        #expect(result.depth == 5)
        #expect(result.nodes >= lastNodes)
    }

    @Test func everyNodeBelowTheRootIsCountedUnderItsRootMove() throws {
        // Depth 4 has no aspiration window, so the root is searched once an iteration: its own four
        // visits are the only nodes outside the root moves' counts.
        let engine = Engine()
        let result = engine.search(.start, limits: .depth(4))
        let counted = (0..<4096).reduce(UInt64(0)) { $0 + engine.scratch.rootNodes[$1] }
        #expect(counted == result.nodes - 4)
        let best = engine.scratch.rootNodes[Int(MoveCode.pack(result.bestMove) & 4095)]
        #expect(best > 0 && best < counted)
    }

    /// Each helper thread of a search runs the engine's preparation first, each on a thread of
    /// its own, not the searching one's.
    @Test func helperThreadsArePreparedFirst() {
        let engine = Engine(hashMegabytes: 1)
        engine.threads = 3
        let prepared = Mutex<[pthread_t]>([])
        engine.prepareHelperThread = {
            prepared.withLock { $0.append(pthread_self()) }
            // Each waits for the other to start: a helper that had already ended could leave its
            // thread's identifier to the next one (the system reuses them), as a loaded machine
            // showed. Helpers on one thread would wait out the 10 s and fail below.
            let deadline = ContinuousClock.now + .seconds(10)
            while prepared.withLock({ $0.count }) < 2 && ContinuousClock.now < deadline { usleep(1_000) }
        }
        let result = engine.search(.start, limits: .depth(6))
        #expect(Position.start.isLegal(result.bestMove))
        let threads = prepared.withLock { $0 }
        #expect(threads.count == 2)
        #expect(Set(threads).count == 2)
        #expect(!threads.contains(pthread_self()))
    }

    /// Released helpers do not start, and the search is the same as on one thread; allowed
    /// again, they do.
    @Test func releasedHelpersLeaveTheSearchAlone() {
        let engine = Engine(hashMegabytes: 1)
        engine.threads = 3
        let prepared = Mutex(0)
        engine.prepareHelperThread = { prepared.withLock { $0 += 1 } }
        engine.releaseHelpers()
        let alone = engine.search(.start, limits: .depth(6))
        #expect(prepared.withLock { $0 } == 0)
        #expect(alone == Engine(hashMegabytes: 1).search(.start, limits: .depth(6)))
        engine.allowHelpers()
        engine.newGame()
        _ = engine.search(.start, limits: .depth(6))
        #expect(prepared.withLock { $0 } == 2)
    }

    @Test func aNodeLimitStopsTheSearch() throws {
        let result = Engine().search(.start, limits: .nodes(3_000))
        #expect(result.nodes >= 3_000)
        #expect(result.nodes < 3_000 + 10)
        #expect(Position.start.isLegal(result.bestMove))
    }

    /// A search stopped late in an iteration answers with that iteration's best move so far: cut
    /// just before depth D would have ended, it plays depth D's move, not depth D − 1's, and says
    /// the depth it completed.
    @Test func anIterationCutShortStillGivesTheMoveItFound() throws {
        var found: (position: Position, depth: Int, deeper: SearchResult, shallower: SearchResult)?
        search: for fen in Bench.positions {
            let position = try Position(fen: fen)
            for depth in 4...8 {
                let deeper = Engine().search(position, limits: .depth(depth))
                let shallower = Engine().search(position, limits: .depth(depth - 1))
                if deeper.bestMove != shallower.bestMove {
                    found = (position, depth, deeper, shallower)
                    break search
                }
            }
        }
        let (position, depth, deeper, shallower) = try #require(found)
        let cut = Engine().search(position, limits: .nodes(deeper.nodes - 1))
        #expect(cut.depth == depth - 1)
        #expect(cut.bestMove == deeper.bestMove)
        #expect(cut.bestMove != shallower.bestMove)
        #expect(cut.pv.first == cut.bestMove && cut.pv.count <= depth)
    }

    /// A move searched to a time limit answers after the first iteration when there is only one
    /// legal move: here x's only move is b1, and o then has a region of its own to play in, so
    /// the game goes on (spending the minute, the search would go deeper).
    @Test func aSearchOnTimeWithOneLegalMoveAnswersAtOnce() throws {
        let position = try Position(fen: "x1ooooo/ooooooo/ooooooo/oo5/oo5/oo5/o6 x 0 1")
        #expect(position.legalMoves() == [.clone(to: Square("b7")!)])
        let result = Engine(hashMegabytes: 1).search(position, limits: .movetime(.seconds(60)))
        #expect(result.bestMove == .clone(to: Square("b7")!))
        #expect(result.depth == 1)
        // Without a time limit it searches as deep as asked.
        #expect(Engine(hashMegabytes: 1).search(position, limits: .depth(3)).depth == 3)
    }

    @Test func stopEndsAnInfiniteSearchWithALegalMove() async throws {
        let engine = Engine(hashMegabytes: 1)
        let position = try Position(fen: "x5o/7/7/7/7/7/o5x x 0 1")
        // Armed before the search thread starts, so a stop that comes first still counts.
        engine.armForSearch()
        let search = Task { await OffPool.run { engine.run(position, limits: .infinite, onInfo: { _ in }) } }
        try await Task.sleep(for: .milliseconds(100))
        engine.stop()
        let result = await search.value
        #expect(position.isLegal(result.bestMove))
        #expect(result.depth >= 1)
    }

    /// A stop before a search is cleared by it; a halt is not: every later search ends after
    /// its first iteration.
    @Test func aHaltOutlastsTheSearchesThatStartAfterIt() {
        let engine = Engine(hashMegabytes: 1)
        engine.stop()
        #expect(engine.search(.start, limits: .depth(4)).depth == 4)
        engine.halt()
        for _ in 0..<2 {
            let result = engine.search(.start, limits: .depth(8))
            #expect(result.depth == 1)
            #expect(Position.start.isLegal(result.bestMove))
        }
    }

    @Test func newGameMakesTheEngineBehaveAsNew() throws {
        let engine = Engine()
        let position = try Position(fen: "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8")
        let fresh = engine.search(position, limits: .depth(5))
        let warm = engine.search(position, limits: .depth(5))
        engine.newGame()
        let again = engine.search(position, limits: .depth(5))
        #expect(again == fresh)
        #expect(warm.nodes < fresh.nodes)
    }
}
