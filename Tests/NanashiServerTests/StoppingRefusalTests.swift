import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import Testing

@testable import NanashiServer

@Suite struct StoppingRefusalTests {
    /// The refusal of request `id`.
    static func refusal(_ id: Int) -> String {
        #"{"code":"shutting_down","id":\#(id),"message":"the server is stopping for a restart: start a game in a minute","type":"error"}"#
    }

    /// Between the signal and the halt, no game starts (a seek, a game against the engine, an
    /// accepted challenge get `shutting_down`, and nothing changes) and no connection is
    /// accepted; the connections open go on, and the game in progress ends with the stop.
    @Test func aStoppingServerStartsNoGameAndTakesNoConnection() async throws {
        let server = try await TestServer()
        let (ann, bob, cat) = (try server.client(), try server.client(), try server.client())
        for (client, name) in [(ann, "ann"), (bob, "bob"), (cat, "cat")] {
            _ = try await register(client, name)
        }
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        await server.server!.refuseNewGamesAndConnections()
        let seek = try await cat.exchange(#"{"type":"seek","initial":60,"increment":0,"id":1}"#)
        #expect(seek == Self.refusal(1))
        let engine = try await cat.exchange(#"{"type":"seek","ai":1,"id":2}"#)
        #expect(engine == Self.refusal(2))
        let accept = try await bob.exchange(#"{"type":"accept","challenge":"\#(id)","id":3}"#)
        #expect(accept == Self.refusal(3))
        // Still there: the connections open are served, and the challenge stands.
        #expect(try await ann.exchange(#"{"type":"ping","id":4}"#) == #"{"id":4,"type":"pong"}"#)
        #expect(await server.server!.lobby.challenges.standing[id] != nil)
        #expect(await server.server!.lobby.games.isEmpty)
        // A new connection is refused (or told `shutdown` and closed, if it came in first).
        if let late = try? server.client() {
            let lines = try await late.linesUntilClosed()
            #expect(lines.isEmpty || lines == [#"{"type":"shutdown"}"#], "\(lines)")
        }
        await server.stop()
        #expect(try await cat.linesUntilClosed() == [#"{"type":"shutdown"}"#])
    }

    /// A game whose storing is under way as the stop begins is stopped with the others: stored
    /// with its clocks at the stop (both whole: no move made), it resumes after the restart as
    /// games stopped in order do (it was once started after the halt, and resumed only as after
    /// a crash). The game is held in storage by the database's write lock.
    @Test func aGameBeingStoredAsTheStopBeginsIsStoppedWithTheOthers() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(30) }
        let (ann, bob) = try await annAndBob(on: server)
        let seek = #"{"type":"seek","initial":60,"increment":0}"#
        #expect(try await ann.exchange(seek) == #"{"type":"seeking"}"#)
        let lock = try WriteLockHolder(path: server.database.path)
        #expect(try await bob.exchange(seek) == #"{"type":"seeking"}"#)
        let node = server.server!
        while await !node.lobby.starting.contains(1) { try await Task.sleep(for: .milliseconds(1)) }
        let stopping = Task { await node.stop() }
        while await !node.lobby.refusesNewGames { try await Task.sleep(for: .milliseconds(1)) }
        lock.release()
        await stopping.value
        await server.stop()
        let storage = try SQLiteStorage(path: server.database.path)
        let unfinished = try await storage.unfinishedGames()
        #expect(unfinished.count == 1)
        #expect(unfinished.first?.game.stopClocks(atPly: 0) == Clocks(x: 60_000, o: 60_000))
        for client in [ann, bob] {
            #expect(try await client.linesUntilClosed().last == #"{"type":"shutdown"}"#)
        }
        await storage.close()
    }
}
