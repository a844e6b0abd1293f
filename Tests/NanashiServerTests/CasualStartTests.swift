import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

@Suite struct CasualStartTests {
    /// A casual challenge's game says so in both `start`s, in the `game` a player gets on
    /// coming back and in a watcher's `game` (`"rated":false`); a rated one's say nothing.
    @Test func aCasualGameSaysSoAtItsStartAndOnComingBack() async throws {
        let server = try await TestServer()
        let (ann, bob) = (try server.client(), try server.client())
        _ = try await register(ann, "ann")
        let bobToken = try await register(bob, "bob")
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        let annStart = try await ann.line()
        guard case .start(let start) = try Wire.reply(fromLine: Array(annStart.utf8)).message else {
            throw TestClient.Failure(description: annStart)
        }
        let game = start.game
        let standard = Position.start.fen
        #expect(
            annStart
                == #"{"color":"x","fen":"\#(standard)","game":\#(game),"increment":0,"initial":60,"legal":\#(Wire.movesArray(Position.start.legalMoves())),"opponent":{"name":"bob","rating":1500},"rated":false,"type":"start"}"#
        )
        #expect(
            try await bob.line()
                == #"{"color":"o","fen":"\#(standard)","game":\#(game),"increment":0,"initial":60,"opponent":{"name":"ann","rating":1500},"rated":false,"type":"start"}"#
        )
        #expect(try await ann.exchange(#"{"type":"move","game":\#(game),"move":"f2"}"#).contains("moved"))
        _ = try await bob.line()

        // bob reloads: his `game` says the game is casual, so his client offers takebacks.
        bob.close()
        let back = try server.client()
        #expect(try await back.exchange(#"{"type":"auth","token":"\#(bobToken)"}"#).contains("welcome"))
        let after = try Position.start.play("f2")
        #expect(
            try await back.line()
                == #"{"clock":{"o":60000,"x":60000},"color":"o","fen":"\#(after.fen)","game":\#(game),"increment":0,"initial":60,"legal":\#(Wire.movesArray(after.legalMoves())),"moves":["f2"],"opponent":{"name":"ann","rating":1500},"rated":false,"type":"game"}"#
        )
        let watcher = try server.client()
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(game)}"#)
                == #"{"clock":{"o":60000,"x":60000},"fen":"\#(after.fen)","game":\#(game),"increment":0,"initial":60,"moves":["f2"],"o":{"name":"bob","rating":1500},"rated":false,"type":"game","x":{"name":"ann","rating":1500}}"#
        )
        // And a takeback is open to him: ann is asked.
        #expect(
            try await back.exchange(#"{"type":"move","game":\#(game),"move":"\#(after.legalMoves()[0])"}"#)
                .contains("moved"))
        #expect(
            try await back.exchange(#"{"type":"takeback","game":\#(game)}"#)
                == #"{"game":\#(game),"type":"takeback_offered"}"#)
        await server.stop()
    }

    /// A rated challenge's game leaves `rated` out, at the start and on coming back.
    @Test func aRatedGameLeavesItOut() async throws {
        let server = try await TestServer()
        let (ann, bob) = (try server.client(), try server.client())
        _ = try await register(ann, "ann")
        let bobToken = try await register(bob, "bob")
        let (_, id) = try await challenge(
            ann, "bob", terms: #""initial":60,"increment":0,"color":"x","rated":true"#)
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        let annStart = try await ann.line()
        let bobStart = try await bob.line()
        #expect(
            annStart.hasSuffix(#""opponent":{"name":"bob","rating":1500},"type":"start"}"#), "\(annStart)")
        #expect(
            bobStart.hasSuffix(#""opponent":{"name":"ann","rating":1500},"type":"start"}"#), "\(bobStart)")
        bob.close()
        let back = try server.client()
        #expect(try await back.exchange(#"{"type":"auth","token":"\#(bobToken)"}"#).contains("welcome"))
        let state = try await back.line()
        #expect(state.hasSuffix(#""opponent":{"name":"ann","rating":1500},"type":"game"}"#), "\(state)")
        await server.stop()
    }
}
