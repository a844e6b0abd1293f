import Foundation
import GRDB
import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import Testing

@testable import NanashiServer

/// A finished game of ann (x) against the engine at level 1: ann plays `f2`, the engine answers,
/// ann resigns. Returns the game's id and its moves.
private func finishedEngineGame(_ ann: TestClient) async throws -> (game: Int64, moves: [String]) {
    #expect(try await ann.exchange(#"{"type":"seek","ai":1,"color":"x"}"#) == #"{"type":"seeking"}"#)
    guard case .start(let start) = try await ann.reply().message else {
        throw TestClient.Failure(description: "expected start")
    }
    ann.send(#"{"type":"move","game":\#(start.game),"move":"f2"}"#)
    var moves: [String] = []
    for _ in 0..<2 {
        guard case .moved(let moved) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        moves.append(moved.move.description)
    }
    ann.send(#"{"type":"resign","game":\#(start.game)}"#)
    guard case .end = try await ann.reply().message else {
        throw TestClient.Failure(description: "expected end")
    }
    return (start.game, moves)
}

@Suite struct AnalysisTests {
    /// An analysis is computed beside the connection's other lines: while it waits for the
    /// engine (here held by a search that does not end), a ping on the same connection is
    /// answered (it once waited behind it, as a move in a rematch would, losing on time).
    @Test func anAnalysisBeingComputedDoesNotHoldUpTheConnectionsNextLines() async throws {
        let server = try await TestServer { $0.engineThreads = 1 }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let (game, _) = try await finishedEngineGame(ann)
        let engines = await server.server!.lobby.engines
        let holding = Task { await engines.evaluate(.start, depth: 60) }
        ann.send(#"{"type":"analyse","game":\#(game),"id":7}"#)
        #expect(try await ann.exchange(#"{"type":"ping","id":8}"#) == #"{"id":8,"type":"pong"}"#)
        engines.stop()
        _ = await holding.value
        #expect(try await ann.reply().id == .integer(7))
        await server.stop()
    }

    /// Each position is searched at the server's depth on a cleared table, so a fresh engine
    /// gives the same evaluations; the answer is stored and served again from storage.
    @Test func aFinishedGameIsAnalysedOnceAndServedFromStorage() async throws {
        let server = try await TestServer { $0.analysisDepth = 2 }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let (game, moves) = try await finishedEngineGame(ann)
        let line = try await ann.exchange(#"{"type":"analyse","game":\#(game),"id":7}"#)
        guard case .analysis(let analysis) = try Wire.reply(fromLine: Array(line.utf8)).message else {
            throw TestClient.Failure(description: line)
        }
        let positions =
            try [Position.start]
            + moves.indices.map {
                try Position.start.replaying(moves[...$0]).position
            }
        let engine = Engine()
        let expected = positions.map { position in
            engine.newGame()
            let score = engine.search(position, limits: .depth(2)).score
            return position.sideToMove == .x ? score : -score
        }
        #expect(analysis == GameAnalysis(game: game, depth: 2, evals: expected, mistakes: analysis.mistakes))
        #expect(line.hasPrefix(#"{"accuracy":{"o":{"accurate":"#) && line.contains(#""depth":2,"evals":["#))
        #expect(line.contains(#""unit":"centipieces""#))
        let stored = try await DatabaseQueue(path: server.database.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM analysis WHERE game_id = ?", arguments: [game])
        }
        #expect(stored == 1)
        // Asked again (by anyone), the same answer comes from storage.
        let watcher = try server.client()
        #expect(try await watcher.exchange(#"{"type":"analyse","game":\#(game),"id":7}"#) == line)
        await server.stop()
    }

    /// A stored analysis is served as its stored bytes, not decoded and encoded again: stored
    /// with an accuracy that its evaluations do not give (an encoder would write them afresh),
    /// it is served with that one. One stored with its keys unsorted (as before they were
    /// sorted) is served as the encoder writes it.
    @Test func aStoredAnalysisIsServedAsItsStoredBytes() async throws {
        let server = try await TestServer { $0.analysisDepth = 1 }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let (game, _) = try await finishedEngineGame(ann)
        let line = try await ann.exchange(#"{"type":"analyse","game":\#(game)}"#)
        let database = try DatabaseQueue(path: server.database.path)
        let body = try #require(
            try await database.read { db in
                try String.fetchOne(db, sql: "SELECT body FROM analysis WHERE game_id = ?", arguments: [game])
            })
        #expect(try Wire.analysisLine(fields: body, id: nil) == line)
        let accuracy = try #require(body.range(of: #"{"accurate":"#))
        let altered = body.replacingCharacters(in: accuracy, with: #"{"accurate":9"#)
        func store(_ body: String) async throws {
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE analysis SET body = ? WHERE game_id = ?", arguments: [body, game])
            }
        }
        try await store(altered)
        let served = try await ann.exchange(#"{"type":"analyse","game":\#(game),"id":"s"}"#)
        #expect(
            served.contains(#"{"accurate":9"#)
                && served.hasSuffix(#""type":"analysis","unit":"centipieces"}"#))
        #expect(
            served
                == line.replacingCharacters(
                    in: try #require(line.range(of: #"{"accurate":"#)), with: #"{"accurate":9"#
                ).replacingOccurrences(of: #","mistakes":"#, with: #","id":"s","mistakes":"#))
        let analysis = try GameAnalysis(storedBody: body, gameID: game)
        try await store(String(decoding: try JSONEncoder().encode(analysis), as: UTF8.self))
        #expect(try await ann.exchange(#"{"type":"analyse","game":\#(game)}"#) == line)
        await server.stop()
    }

    /// An unknown game and one in progress get `no_such_game` and queue nothing; past its quota
    /// an address is refused, while analyses already stored are still served.
    @Test func unknownGamesGamesInProgressAndFloodsAreRefused() async throws {
        let server = try await TestServer {
            $0.analysisDepth = 1
            $0.analysesPerHour = 1
        }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        #expect(
            try await ann.exchange(#"{"type":"analyse","game":99,"id":1}"#)
                == #"{"code":"no_such_game","id":1,"message":"no finished game 99","type":"error"}"#)
        let (first, _) = try await finishedEngineGame(ann)
        // A game in progress: the rematch.
        #expect(try await ann.exchange(#"{"type":"rematch","game":\#(first)}"#).contains("rematch_offered"))
        guard case .start(let rematch) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        _ = try await ann.reply()  // the engine's first move
        #expect(
            try await ann.exchange(#"{"type":"analyse","game":\#(rematch.game)}"#)
                == #"{"code":"no_such_game","message":"no finished game \#(rematch.game)","type":"error"}"#)
        #expect(
            try await ann.exchange(#"{"type":"analyse","game":\#(first)}"#).contains(#""type":"analysis""#))
        ann.send(#"{"type":"resign","game":\#(rematch.game)}"#)
        guard case .end = try await ann.reply().message else {
            throw TestClient.Failure(description: "no end")
        }
        #expect(
            try await ann.exchange(#"{"type":"analyse","game":\#(rematch.game)}"#)
                == #"{"code":"rate_limited","message":"too many analyses from your address (at most 1 an hour)","type":"error"}"#
        )
        #expect(
            try await ann.exchange(#"{"type":"analyse","game":\#(first)}"#).contains(#""type":"analysis""#))
        let analyses = try await DatabaseQueue(path: server.database.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM analysis")
        }
        #expect(analyses == 1)
        await server.stop()
    }

    /// Evaluations turn to x's point of view; a move that loses 3 pieces or more is a mistake,
    /// with the move the search preferred; a finished position scores its result.
    @Test func mistakesAreTheMovesThatLoseMuch() throws {
        let moves = [Move.clone(to: Square("g2")!), .clone(to: Square("b2")!)]
        let positions = try [
            Position.start, Position.start.play(moves[0]), Position.start.play(moves[0]).play(moves[1]),
        ]
        func result(_ best: String, _ score: Int) throws -> SearchResult {
            SearchResult(bestMove: try Move(notation: best), score: score, depth: 3, nodes: 1, pv: [])
        }
        // x to move: level; o to move: o is 3 pieces up (x lost 300 by g2 rather than f1); x to
        // move: x is 2.5 pieces down (o lost only 50).
        let analysis = Analyst.analysis(
            5, positions: positions, moves: moves,
            results: [try result("f1", 0), try result("a2", 300), try result("f1", -250)], depth: 3)
        #expect(
            analysis
                == GameAnalysis(
                    game: 5, depth: 3, evals: [0, -300, -250],
                    mistakes: [GameAnalysis.Mistake(ply: 1, played: "g2", best: "f1", loss: 300)]))
        // A win found by the search, and a game over, score `won`.
        let won = Analyst.analysis(
            6, positions: [Position.start, try Position(fen: "7/7/7/7/7/7/x6 o 0 1")], moves: [moves[0]],
            results: [try result("f1", Engine.winScore - 3), nil], depth: 3)
        #expect(won.evals == [GameAnalysis.won, GameAnalysis.won] && won.mistakes.isEmpty)
    }

    /// A side that must pass is scored by the position after its pass (the engine scores a
    /// forced-pass root 0, which would draw a level game where x is far ahead).
    @Test func aForcedPassIsScoredByThePositionAfterIt() async throws {
        // o's one piece on a1 is walled in: o must pass, x is 7 pieces up (not level, as 0 would say).
        let walled = try Position(fen: "7/7/7/7/xxx4/xxx4/oxx4 o 0 1")
        #expect(!walled.hasMove && !walled.isGameOver)
        let engines = EnginePool(threads: 1, maximumWaiting: 4)
        let analysis = await Analyst.analyse(1, positions: [walled], moves: [], depth: 2, on: engines)
        let engine = Engine()
        let afterPass = engine.search(try walled.play(.pass), limits: .depth(2)).score
        #expect(analysis.evals == [min(afterPass, GameAnalysis.won)] && afterPass > 100, "\(afterPass)")
        engines.stop()
    }
}

/// An analysis's positions searched several at once while the engine pool has threads to spare.
@Suite struct AnalysisOnSpareThreadsTests {
    /// The positions of a short game, and each one's place among them as its search's score.
    private static let positions: [Position] = {
        var positions = [Position.start]
        for text in ["f2", "b2", "e3", "c3", "f1"] {
            positions.append(try! positions[positions.count - 1].play(Move(notation: text)))
        }
        return positions
    }()

    private static func placed(_ position: Position) -> SearchResult {
        SearchResult(bestMove: .pass, score: positions.firstIndex(of: position)!, depth: 1, nodes: 1, pv: [])
    }

    /// How many searches may run at once, how many threads are idle, and how many searches
    /// should then begin before any ends.
    struct Spread: Sendable {
        var atMost: Int
        var spare: Int
        var together: Int
    }

    /// With no thread to spare, one search at a time; on an idle pool of three threads, three
    /// begin before any ends (each waits here until `together` have begun; fewer at once fail
    /// when the time limit gives up), and never more than `atMost`. The results come in the
    /// positions' order whatever order the searches end in.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [Spread(atMost: 4, spare: 0, together: 1), Spread(atMost: 3, spare: 3, together: 3)])
    func asManySearchesAtOnceAsThreadsAreSpare(_ spread: Spread) async {
        let meeting = Meeting(of: spread.together)
        let results = await Analyst.searches(
            of: Self.positions, atMost: spread.atMost, spare: { spread.spare },
            search: { position in
                await meeting.enter()
                let result = Self.placed(position)
                await meeting.leave()
                return result
            })
        #expect(results.map { $0?.score } == Array(0..<6))
        #expect(await meeting.most == spread.together)
    }

    /// A game analysed on a pool of three idle threads is the same analysis, to the last number,
    /// as on a pool of one: each search stands alone.
    @Test func anAnalysisOnSpareThreadsIsTheAnalysisOnOne() async throws {
        let moves = try ["f2", "b2", "e3", "c3", "f1"].map { try Move(notation: $0) }
        let (one, three) = (
            EnginePool(threads: 1, maximumWaiting: 8), EnginePool(threads: 3, maximumWaiting: 8)
        )
        let alone = await Analyst.analyse(7, positions: Self.positions, moves: moves, depth: 4, on: one)
        let spread = await Analyst.analyse(7, positions: Self.positions, moves: moves, depth: 4, on: three)
        #expect(spread == alone)
        #expect(alone.evals.count == 6)
        #expect(one.searches == 6 && three.searches == 6)
        one.stop()
        three.stop()
    }

    /// Holds each search that enters until `count` have entered (later ones pass at once), and
    /// counts the most inside at once.
    private actor Meeting {
        let count: Int
        private var entered = 0
        private var inside = 0
        private(set) var most = 0
        private var held: [CheckedContinuation<Void, Never>] = []

        init(of count: Int) { self.count = count }

        func enter() async {
            entered += 1
            inside += 1
            most = max(most, inside)
            if entered < count {
                // Let go when the test is cancelled (its time limit), so that it fails rather
                // than hangs.
                await withTaskCancellationHandler {
                    await withCheckedContinuation { held.append($0) }
                } onCancel: {
                    Task { await self.letGo() }
                }
            } else if entered == count {
                letGo()
            }
        }

        private func letGo() {
            for waiting in held { waiting.resume() }
            held = []
        }

        func leave() { inside -= 1 }
    }
}

/// A server with one engine thread, ann's three finished games against the engine, and the
/// thread held by a search that ends only when the pool stops.
private struct HeldEngine {
    let server: TestServer
    let ann: TestClient
    let games: [Int64]
    let engines: EnginePool
    let holding: Task<SearchResult, Never>

    init(_ configure: @escaping (inout ServerSettings) -> Void) async throws {
        server = try await TestServer {
            $0.engineThreads = 1
            configure(&$0)
        }
        ann = try server.client()
        _ = try await register(ann, "ann")
        var games: [Int64] = []
        for _ in 0..<3 { games.append(try await finishedEngineGame(ann).game) }
        self.games = games
        let engines = await server.server!.lobby.engines
        self.engines = engines
        holding = Task { await engines.evaluate(.start, depth: 60) }
        while engines.runningCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// Stops the pool: the held search, and every one after it, ends with nothing.
    func release() async {
        engines.stop()
        _ = await holding.value
    }
}

@Suite struct AnalysisCostTests {
    /// While an analysis asked from one address is computed, that address gets `busy` for
    /// another game, while another address's analysis goes ahead.
    @Test func anAddressHasOneAnalysisComputedAtATime() async throws {
        let held = try await HeldEngine { $0.concurrentAnalyses = 3 }
        let (server, ann, engines) = (held.server, held.ann, held.engines)
        let (first, second, third) = (held.games[0], held.games[1], held.games[2])
        // The pool's one thread is held: both analyses of ann's address wait for it, or one is
        // refused; whichever reaches the server first is the one computed.
        ann.send(#"{"type":"analyse","game":\#(first),"id":1}"#)
        ann.send(#"{"type":"analyse","game":\#(second),"id":2}"#)
        let refused = try await ann.reply()
        #expect(
            refused.message
                == .error(
                    ProtocolError(
                        .busy, "an analysis you asked for is being computed; ask again once it is done")))
        let other = try server.client(from: "127.0.0.2")
        other.send(#"{"type":"analyse","game":\#(third),"id":3}"#)
        while engines.waitingCount < 2 { try await Task.sleep(for: .milliseconds(1)) }
        await held.release()
        // The stopped pool answered the searches with nothing: that is not kept as an analysis.
        let computed = try await ann.reply()
        #expect(Set([refused.id, computed.id]) == [.integer(1), .integer(2)])
        #expect(computed.message == .error(ProtocolError(.busy, "the server is stopping")))
        #expect(try await other.reply().id == .integer(3))
        let stored = try await DatabaseQueue(path: server.database.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM analysis")
        }
        #expect(stored == 0)
        await server.stop()
    }

    /// A long game is analysed less deep: one ply off per doubling past 200 plies, to 1.
    @Test(arguments: [(0, 6), (200, 6), (201, 5), (400, 5), (401, 4), (1_500, 3), (100_000, 1)])
    func aLongGameIsAnalysedLessDeep(plies: Int, depth: Int) {
        #expect(Analyst.depth(plies: plies, base: 6) == depth)
    }
}

@Suite struct AnalysisQueueTests {
    /// With the one analysis computed at a time held, the next waits its turn (no reply yet), and
    /// once `waitingAnalyses` wait, another is refused with `busy`; the one waiting is answered
    /// after the first.
    @Test func analysesWaitTheirTurnInAShortQueue() async throws {
        let held = try await HeldEngine { $0.waitingAnalyses = 1 }
        let (server, ann, engines) = (held.server, held.ann, held.engines)
        let (first, second, third) = (held.games[0], held.games[1], held.games[2])
        let analyst = server.server!.analyst
        ann.send(#"{"type":"analyse","game":\#(first),"id":1}"#)
        while engines.waitingCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let bob = try server.client(from: "127.0.0.2")
        bob.send(#"{"type":"analyse","game":\#(second),"id":2}"#)
        while await analyst.waitingCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let cid = try server.client(from: "127.0.0.3")
        #expect(
            try await cid.exchange(#"{"type":"analyse","game":\#(third),"id":3}"#)
                == #"{"code":"busy","id":3,"message":"the engine is busy; ask again in a minute","type":"error"}"#
        )
        await held.release()
        // The stopped pool answers every search with nothing: neither analysis is kept, and the
        // second was computed (and refused) only after the first.
        #expect(try await ann.reply().message == .error(ProtocolError(.busy, "the server is stopping")))
        #expect(try await bob.reply().message == .error(ProtocolError(.busy, "the server is stopping")))
        await server.stop()
    }

    /// Computed analyses count per account as well as per address: an account that spent its
    /// hour's analyses from one address is refused from another.
    @Test func anAccountIsHeldToItsAnalysesAnHourFromAnyAddress() async throws {
        let server = try await TestServer {
            $0.analysesPerHour = 1
            $0.analysisDepth = 1
        }
        let ann = try server.client()
        let token = try await register(ann, "ann")
        let (first, _) = try await finishedEngineGame(ann)
        let (second, _) = try await finishedEngineGame(ann)
        #expect(
            try await ann.exchange(#"{"type":"analyse","game":\#(first),"id":1}"#).contains(
                #""type":"analysis""#))
        let elsewhere = try server.client(from: "127.0.0.2")
        #expect(
            try await elsewhere.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains(
                #""type":"welcome""#))
        #expect(
            try await elsewhere.exchange(#"{"type":"analyse","game":\#(second),"id":2}"#)
                == #"{"code":"rate_limited","id":2,"message":"too many analyses from your account (at most 1 an hour)","type":"error"}"#
        )
        // Not logged in there, the address's own analysis goes ahead.
        let stranger = try server.client(from: "127.0.0.3")
        #expect(
            try await stranger.exchange(#"{"type":"analyse","game":\#(second),"id":3}"#).contains(
                #""type":"analysis""#))
        await server.stop()
    }
}
