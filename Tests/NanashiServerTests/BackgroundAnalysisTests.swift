import Foundation
import Logging
import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import NanashiStorage
import Synchronization
import Testing

@testable import NanashiServer

/// The order searches ran in.
private final class Order: Sendable {
    let names = Mutex<[String]>([])
}

@Suite struct BackgroundAnalysisTests {
    /// Every interval (a minute at 60 an hour) the newest rated game without analysis is
    /// analysed, as a person's request would have it; casual games are not; nothing before the
    /// first interval.
    @Test func aRatedGameIsAnalysedEachIntervalNewestFirst() async throws {
        let database = try TemporaryDatabase()
        let seeded = try SQLiteStorage(path: database.path)
        let (ann, bob) = try await seeded.createPlayers("ann", "bob")
        let older = try await finishedGame(seeded, ann, bob, moves: ["f2", "b2"], ended: 1_000)
        let newer = try await finishedGame(seeded, bob, ann, moves: ["f2", "b2", "g1e3"], ended: 2_000)
        _ = try await finishedGame(seeded, ann, bob, moves: ["f2"], ended: 3_000, casual: true)
        await seeded.close()
        let server = try await TestServer(database: database) {
            $0.backgroundAnalysesPerHour = 60
            $0.analysisDepth = 1
        }
        let storage = try SQLiteStorage(path: database.path)
        let clock = server.clock
        try await clock.waitForTimer(until: clock.now + .seconds(60))
        #expect(try await storage.analysis(gameID: newer) == nil)
        var analysed: [Int64] = []
        for _ in 0..<3 {
            clock.advance(by: .seconds(60))
            // Its next timer is armed once this turn is done.
            try await clock.waitForTimer(until: clock.now + .seconds(60))
            analysed = try await storage.ratedAnalyses(limit: 10).map(\.game.game)
            if analysed.count == 2 { break }
        }
        #expect(analysed == [newer, older])
        let analysis = try #require(try await storage.analysis(gameID: newer))
        #expect(analysis.depth == 1 && analysis.evals.count == 4)
        #expect(try await storage.unanalysedRatedGames(limit: 10).isEmpty)
        await storage.close()
        await server.stop()
    }

    /// Set to 0, the server analyses nothing of its own accord: the loop returns at once, with
    /// no timer armed (on a clock that never moves, it would wait for good otherwise).
    @Test func noneAnHourAnalysesNothing() async throws {
        let database = try TemporaryDatabase()
        let storage = try SQLiteStorage(path: database.path)
        let engines = EnginePool(threads: 1, maximumWaiting: 4)
        var settings = ServerSettings()
        settings.clock = TestClock()
        let analyst = Analyst(
            storage: storage, engines: engines, settings: settings, logger: Logger(label: "test"))
        await BackgroundAnalysis(
            storage: storage, analyst: analyst, clock: settings.clock, perHour: 0,
            logger: Logger(label: "test")
        ).run()
        engines.stop()
        await storage.close()
    }

    /// The background's searches wait while anyone else's wait: a person's search queued after
    /// one of the background's runs first.
    @Test func theBackgroundsSearchesGoAfterEveryoneElses() async throws {
        let pool = EnginePool(threads: 1, maximumWaiting: 8)
        let gate = DispatchSemaphore(value: 0)
        let order = Order()
        let nothing = SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: [])
        let holding = Task {
            await pool.search(owner: "1.2.3.4") { _ in
                gate.wait()
                return nothing
            }
        }
        while pool.runningCount < 1 { await Task.yield() }
        let background = Task {
            await pool.search(owner: EnginePool.backgroundOwner) { _ in
                order.names.withLock { $0.append("background") }
                return nothing
            }
        }
        while pool.waitingCount < 1 { await Task.yield() }
        let person = Task {
            await pool.search(owner: "5.6.7.8") { _ in
                order.names.withLock { $0.append("person") }
                return nothing
            }
        }
        while pool.waitingCount < 2 { await Task.yield() }
        gate.signal()
        _ = await (holding.value, background.value, person.value)
        #expect(order.names.withLock { $0 } == ["person", "background"])
        pool.stop()
    }

    /// With several nodes the bound is theirs together: of two nodes' rounds at one moment, one
    /// analyses a game and the other nothing (each would analyse one alone), half an interval
    /// later neither does, and an interval after the last analysis one does again.
    @Test(arguments: NodesBackend.allCases)
    func theNodesTogetherAnalyseOneGameAnInterval(_ backend: NodesBackend) async throws {
        let place = try await NodesPlace(backend)
        let clock = TestClock()
        let servers = try await place.nodes(2, clock: clock)
        let storage = try await place.storage()
        let (ann, bob) = try await storage.createPlayers("ann", "bob")
        for ended in 1...5 {
            _ = try await finishedGame(storage, ann, bob, moves: ["f2", "b2"], ended: Double(ended * 1_000))
        }
        var nodes: [BackgroundAnalysis] = []
        for server in servers {
            let node = try #require(server.server)
            nodes.append(
                BackgroundAnalysis(
                    storage: storage, analyst: node.analyst, clock: clock, perHour: 60,
                    logger: Logger(label: "test"), cluster: await node.lobby.cluster))
        }
        for round in 0..<3 {
            let first = try await nodes[round % 2].analyseNext()
            let second = try await nodes[1 - round % 2].analyseNext()
            #expect(first != nil && second == nil, "round \(round)")
            clock.advance(by: .seconds(30))
            for node in nodes { #expect(try await node.analyseNext() == nil) }
            clock.advance(by: .seconds(30))
        }
        #expect(try await storage.ratedAnalyses(limit: 10).count == 3)
        await storage.close()
        for server in servers { await server.stop() }
    }
}
