import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
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
}
