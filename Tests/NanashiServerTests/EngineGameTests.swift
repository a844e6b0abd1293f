import Foundation
import GRDB
import NanashiAI
import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer

/// The next line, which must be a `moved`.
private func moved(_ client: TestClient) async throws -> Moved {
    guard case .moved(let moved) = try await client.reply().message else {
        throw TestClient.Failure(description: "expected moved")
    }
    return moved
}

/// Games stored in a server's database.
private func storedGames(_ server: TestServer) throws -> Int {
    try DatabaseQueue(path: server.database.path).read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM game") ?? 0
    }
}

/// `request`, for a new game against the engine, is refused with `busy`: the engine has no room;
/// `server` still stores `games` games.
private func expectBusy(
    _ request: String, from client: TestClient, storedGames games: Int, on server: TestServer,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    #expect(
        try await client.exchange(request)
            == #"{"code":"busy","message":"the engine is busy with other games; try again in a minute","type":"error"}"#,
        sourceLocation: sourceLocation)
    #expect(try storedGames(server) == games, sourceLocation: sourceLocation)
}

@Suite struct EngineGameTests {
    /// The engine plays as any opponent: `start` names it (and says the game is casual), it answers each move with a legal one
    /// in a `moved` that lists the player's moves, nothing is rated, and the profile keeps the
    /// game apart; a rematch starts at once with colours swapped, the engine moving first.
    @Test func aPlayerPlaysTheEngineUnratedAndRematchesIt() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":1,"color":"x","initial":60,"increment":0,"id":1}"#)
                == #"{"id":1,"type":"seeking"}"#)
        let start = try await ann.line()
        guard case .start(let started) = try Wire.reply(fromLine: Array(start.utf8)).message else {
            throw TestClient.Failure(description: start)
        }
        let game = started.game
        #expect(
            start
                == #"{"color":"x","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":\#(game),"increment":0,"initial":60,"legal":["f1","f2","g2","a6","b6","b7","g1e1","g1e2","g1e3","g1f3","g1g3","a7a5","a7b5","a7c5","a7c6","a7c7"],"opponent":{"name":"AI level 1","rating":1500},"rated":false,"type":"start"}"#
        )
        var position = Position.start
        for _ in 0..<3 {
            let move = position.legalMoves()[0]
            ann.send(#"{"type":"move","game":\#(game),"move":"\#(move)"}"#)
            #expect(try await moved(ann).move == move)
            position = try position.play(move)
            let answer = try await moved(ann)
            let engineMove = answer.move
            #expect(position.legalMoves().contains(engineMove))
            position = try position.play(engineMove)
            #expect(answer.fen == position.fen && answer.legal == position.legalMoves())
        }
        // Watchable and in the live list like any game.
        let watcher = try server.client()
        #expect(
            try await watcher.exchange(#"{"type":"live"}"#).contains(
                #""o":{"name":"AI level 1","rating":1500}"#))
        ann.send(#"{"type":"resign","game":\#(game),"id":2}"#)
        #expect(
            try await ann.line()
                == #"{"game":\#(game),"id":2,"outcome":{"reason":"resign","winner":"o"},"rating":{"after":1500,"before":1500},"type":"end"}"#
        )
        let profile = try await ann.exchange(#"{"type":"profile","name":"ann"}"#)
        #expect(
            profile
                == #"{"computer":[{"color":"x","game":\#(game),"opponent":"AI level 1","outcome":{"reason":"resign","winner":"o"},"rating_change":0}],"draws":0,"games":0,"losses":0,"name":"ann","rank":null,"rating":1500,"rd":350,"recent":[],"type":"profile","wins":0}"#
        )
        // The engine takes the rematch at once; it has x now and moves first.
        #expect(
            try await ann.exchange(#"{"type":"rematch","game":\#(game)}"#)
                == #"{"game":\#(game),"type":"rematch_offered"}"#)
        guard case .start(let rematch) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        #expect(rematch.color == .o && rematch.opponent.name == "AI level 1" && rematch.legal == nil)
        let first = try await moved(ann)
        #expect(first.ply == 1 && first.game == rematch.game && first.legal != nil)
        await server.stop()
    }

    /// A level out of range is refused naming the range; one game at a time per player, however
    /// many seeks a client sends at once; nothing is stored for a refused seek.
    @Test func badSeeksAreRefusedAndChangeNothing() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        for level in ["0", "25", "-3"] {
            #expect(
                try await ann.exchange(#"{"type":"seek","ai":\#(level),"id":1}"#)
                    == #"{"code":"bad_request","id":1,"message":"ai is a level from 1 to 24","type":"error"}"#
            )
        }
        #expect(try await ann.exchange(#"{"type":"seek","ai":"top"}"#).hasPrefix(#"{"code":"bad_request""#))
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":3,"color":"y"}"#).hasPrefix(
                #"{"code":"bad_request""#))
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":3,"initial":1}"#)
                == #"{"code":"bad_request","message":"initial is 15 to 10800 seconds, increment 0 to 600","type":"error"}"#
        )
        #expect(try storedGames(server) == 0)
        // A flood: the first starts a game (ann has x: the engine waits for her), each of the
        // others is refused.
        for id in 1...6 { ann.send(#"{"type":"seek","ai":2,"color":"x","id":\#(id)}"#) }
        var lines: [String] = []
        for _ in 0..<7 { lines.append(try await ann.line()) }
        #expect(lines.filter { $0 == #"{"id":1,"type":"seeking"}"# }.count == 1)
        #expect(lines.filter { $0.contains(#""type":"start""#) }.count == 1)
        let refused = lines.filter { $0.contains(#""type":"error""#) }
        #expect(refused.count == 5)
        #expect(
            refused.allSatisfy {
                $0.contains(#""code":"in_game""#) || $0.contains(#""code":"already_seeking""#)
            })
        #expect(try storedGames(server) == 1)
        await server.stop()
    }

    /// With the engine's queue full, a new game against it is answered `busy`; nothing is stored.
    @Test func aFullQueueAnswersBusy() async throws {
        let server = try await TestServer { $0.engineQueue = 0 }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        try await expectBusy(#"{"type":"seek","ai":5}"#, from: ann, storedGames: 0, on: server)
        await server.stop()
    }

    /// A rematch of the engine is a new engine game: refused with `busy` when the engine has no
    /// room, as a seek is (rematches once skipped the check, so one player resigning and
    /// rematching in a loop could queue searches without end).
    @Test func aRematchOfTheEngineIsRefusedWhenTheEngineIsBusy() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":1,"color":"x","initial":60,"increment":0}"#)
                == #"{"type":"seeking"}"#)
        guard case .start(let started) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        ann.send(#"{"type":"resign","game":\#(started.game)}"#)
        guard case .end = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected end")
        }
        await server.server!.lobby.engines.stop()
        try await expectBusy(
            #"{"type":"rematch","game":\#(started.game)}"#, from: ann, storedGames: 1, on: server)
        await server.stop()
    }

    /// Three accounts of one address seek the engine while storage is slow (another process
    /// holds its write lock): the third is refused `busy` before either game is stored, as it is
    /// once they are (seeks that arrived while the first games were stored all passed the limit).
    @Test func seeksArrivingWhileEngineGamesAreStoredCountThem() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(60) }
        var clients: [TestClient] = []
        for name in ["ann", "bob", "cat"] {
            let client = try server.client(from: "127.0.0.5")
            _ = try await register(client, name)
            clients.append(client)
        }
        let lock = try WriteLockHolder(path: server.database.path)
        for client in clients[0...1] {
            #expect(
                try await client.exchange(#"{"type":"seek","ai":1,"color":"x"}"#) == #"{"type":"seeking"}"#)
        }
        #expect(
            try await clients[2].exchange(#"{"type":"seek","ai":1,"id":1}"#)
                == #"{"code":"busy","id":1,"message":"your address has 2 games against the engine in progress; finish one first","type":"error"}"#
        )
        lock.release()
        for client in clients[0...1] {
            guard case .start = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
        }
        #expect(try storedGames(server) == 2)
        await server.stop()
    }

    /// One address may have two games against the engine in progress, over all its accounts: a
    /// third is refused with `busy` (nothing stored) while another address is served, and once
    /// one of the two ends, the address may start another.
    @Test func anAddressPlaysAtMostTwoEngineGamesAtOnce() async throws {
        let server = try await TestServer()
        var games: [(TestClient, Int64)] = []
        for name in ["ann", "bob"] {
            let client = try server.client(from: "127.0.0.5")
            _ = try await register(client, name)
            #expect(
                try await client.exchange(#"{"type":"seek","ai":1,"color":"x"}"#) == #"{"type":"seeking"}"#)
            guard case .start(let started) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            games.append((client, started.game))
        }
        let cat = try server.client(from: "127.0.0.5")
        _ = try await register(cat, "cat")
        #expect(
            try await cat.exchange(#"{"type":"seek","ai":1,"id":1}"#)
                == #"{"code":"busy","id":1,"message":"your address has 2 games against the engine in progress; finish one first","type":"error"}"#
        )
        #expect(try storedGames(server) == 2)
        let dan = try server.client(from: "127.0.0.6")
        _ = try await register(dan, "dan")
        #expect(try await dan.exchange(#"{"type":"seek","ai":1}"#) == #"{"type":"seeking"}"#)
        guard case .start = try await dan.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        let (ann, annGame) = games[0]
        ann.send(#"{"type":"resign","game":\#(annGame)}"#)
        guard case .end = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected end")
        }
        #expect(try await cat.exchange(#"{"type":"seek","ai":1}"#) == #"{"type":"seeking"}"#)
        await server.stop()
    }

    /// A player starts at most `engineSeekBurst` games against the engine at once, then
    /// `engineSeeksPerMinute`: a loop of seeks and resignations is refused with `rate_limited`,
    /// and the engine's searches of the games resigned are stopped.
    @Test func seekingTheEngineAgainAndAgainIsRateLimited() async throws {
        let server = try await TestServer {
            $0.engineSeekBurst = 3
            $0.engineSeeksPerMinute = 1
        }
        let ann = try server.client()
        _ = try await register(ann, "ann")
        for _ in 0..<3 {
            // The engine moves first, at full strength: its search is stopped by the resignation.
            #expect(try await ann.exchange(#"{"type":"seek","ai":24,"color":"o"}"#) == #"{"type":"seeking"}"#)
            guard case .start(let started) = try await ann.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            ann.send(#"{"type":"resign","game":\#(started.game)}"#)
            var line = try await ann.line()
            while !line.contains(#""type":"end""#) { line = try await ann.line() }
        }
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":24,"color":"o","id":4}"#)
                == #"{"code":"rate_limited","id":4,"message":"too many games against the engine started; wait a minute before the next","type":"error"}"#
        )
        #expect(try storedGames(server) == 3)
        server.clock.advance(by: .seconds(60))
        #expect(try await ann.exchange(#"{"type":"seek","ai":1,"color":"x"}"#) == #"{"type":"seeking"}"#)
        await server.stop()
    }

    /// A game against the engine resumes after a restart, the engine seated again: it answers the
    /// player's move as before.
    @Test func anEngineGameResumesAfterARestart() async throws {
        let database = try TemporaryDatabase()
        var server = try await TestServer(database: database)
        var ann = try server.client()
        let token = try await register(ann, "ann")
        #expect(try await ann.exchange(#"{"type":"seek","ai":1,"color":"x"}"#) == #"{"type":"seeking"}"#)
        guard case .start(let start) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        ann.send(#"{"type":"move","game":\#(start.game),"move":"f2"}"#)
        _ = try await moved(ann)
        let answer = try await moved(ann)
        await server.stop()

        server = try await TestServer(database: database)
        ann = try server.client()
        #expect(
            try await ann.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains(#""type":"welcome""#))
        guard case .game(let state) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected game")
        }
        #expect(state.moves == ["f2", answer.move] && state.fen == answer.fen)
        let position = try Position(fen: state.fen)
        ann.send(#"{"type":"move","game":\#(start.game),"move":"\#(position.legalMoves()[0])"}"#)
        #expect(try await moved(ann).ply == 3)
        let reply = try await moved(ann)
        #expect(reply.ply == 4 && reply.legal != nil)
        await server.stop()
    }
}
