import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import Testing

@testable import NanashiServer

/// `client` offers a `draw` or a `takeback` (`kind`) in `game` with request `id`, and expects
/// the offer made (`draw_offered`, `takeback_offered`).
func expectOffered(
    _ kind: String, by client: TestClient, game: Int64, id: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    #expect(
        try await client.exchange(#"{"type":"\#(kind)","game":\#(game),"id":"\#(id)"}"#)
            == #"{"game":\#(game),"id":"\#(id)","type":"\#(kind)_offered"}"#, sourceLocation: sourceLocation)
}

@Suite struct DrawOfferTests {
    /// On one node, and across two (on PostgreSQL and in memory): an offer reaches the opponent,
    /// a decline both players; an offer again at once is refused; the opponent's offer, accepted,
    /// ends the game drawn by agreement and rated (a draw in each player's record).
    @Test(arguments: [nil] + NodesBackend.allCases.map(Optional.some))
    func aDrawIsOfferedDeclinedThenAgreed(across backend: NodesBackend?) async throws {
        let place: NodesPlace? = if let backend { try await NodesPlace(backend) } else { nil }
        let servers: [TestServer] =
            if let place { try await place.nodes(2) } else { [try await TestServer()] }
        var played = try await PlayedGame(
            annServer: servers[0], bobServer: servers[servers.count - 1], plies: 4)
        let (g, x, o) = (played.game, played.clients[.x]!, played.clients[.o]!)

        try await expectOffered("draw", by: x, game: g, id: "d1")
        #expect(try await o.line() == #"{"game":\#(g),"type":"draw_offer"}"#)
        #expect(
            try await o.exchange(#"{"type":"decline_draw","game":\#(g),"id":"n"}"#)
                == #"{"game":\#(g),"id":"n","type":"draw_declined"}"#)
        #expect(try await x.line() == #"{"game":\#(g),"type":"draw_declined"}"#)
        #expect(
            try await x.exchange(#"{"type":"draw","game":\#(g),"id":"d2"}"#)
                == #"{"code":"rate_limited","id":"d2","message":"you may offer a draw again after 10 more moves of yours","type":"error"}"#
        )
        #expect(
            try await o.exchange(#"{"type":"decline_draw","game":\#(g)}"#)
                == #"{"code":"bad_request","message":"no draw offer to decline","type":"error"}"#)
        try await played.play(1)

        #expect(
            try await o.exchange(#"{"type":"draw","game":\#(g)}"#) == #"{"game":\#(g),"type":"draw_offered"}"#
        )
        #expect(try await x.line() == #"{"game":\#(g),"type":"draw_offer"}"#)
        x.send(#"{"type":"draw","game":\#(g),"id":"yes"}"#)
        for (client, id) in [(x, #""id":"yes","#), (o, "")] {
            #expect(
                try await client.line()
                    == #"{"game":\#(g),\#(id)"outcome":{"reason":"agreement","winner":null},"rating":{"after":1500,"before":1500},"type":"end"}"#
            )
        }
        let storage: any Storage =
            if let place { try await place.storage() } else {
                try SQLiteStorage(path: servers[0].database.path)
            }
        for name in ["ann", "bob"] {
            let player = try #require(try await storage.player(named: name))
            #expect(player.games == 1 && player.draws == 1 && player.rd < 350)
        }
        await storage.close()
        for server in servers { await server.stop() }
    }
}

@Suite struct TakebackTests {
    /// In a casual game (a challenge's), on one node and across two (on PostgreSQL and in
    /// memory), ann takes back her move and bob's reply: bob accepts, both get the game from
    /// before, and ann plays another move as ply 1 again, stored so. In a rated game, a takeback
    /// is refused.
    @Test(arguments: [nil] + NodesBackend.allCases.map(Optional.some))
    func aTakebackInACasualGame(across backend: NodesBackend?) async throws {
        let place: NodesPlace? = if let backend { try await NodesPlace(backend) } else { nil }
        let servers: [TestServer] =
            if let place { try await place.nodes(2) } else { [try await TestServer()] }
        let (ann, bob) = (try servers[0].client(), try servers[servers.count - 1].client())
        _ = try await register(ann, "ann")
        _ = try await register(bob, "bob")
        let (_, id) = try await challenge(ann, "bob")
        _ = try await bob.line()
        bob.send(#"{"type":"accept","challenge":"\#(id)"}"#)
        guard case .start(let start) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        let g = start.game
        _ = try await bob.line()
        for (mover, move) in [(ann, "b6"), (bob, "f6")] {
            mover.send(#"{"type":"move","game":\#(g),"move":"\#(move)"}"#)
            _ = try await ann.line()
            _ = try await bob.line()
        }
        try await expectOffered("takeback", by: ann, game: g, id: "t")
        #expect(try await bob.line() == #"{"game":\#(g),"type":"takeback_offer"}"#)
        bob.send(#"{"type":"takeback","game":\#(g),"id":"ok"}"#)
        for client in [ann, bob] {
            let reply = try await client.reply()
            guard case .game(let state) = reply.message else {
                throw TestClient.Failure(description: "\(reply)")
            }
            #expect(state.moves.isEmpty && state.fen == Position.start.fen)
            #expect(reply.id == (client === bob ? .string("ok") : nil))
        }
        let moved = try await ann.exchange(#"{"type":"move","game":\#(g),"move":"f2","id":1}"#)
        #expect(moved.contains(#""move":"f2","ply":1"#), "\(moved)")
        #expect(try await bob.line().contains(#""move":"f2","ply":1"#))
        let watching = try await servers[0].client().exchange(#"{"type":"watch","game":\#(g)}"#)
        #expect(watching.contains(#""moves":["f2"]"#), "\(watching)")
        // Stored so: the two moves taken back are gone, the new one is ply 1.
        let storage: any Storage =
            if let place { try await place.storage() } else {
                try SQLiteStorage(path: servers[0].database.path)
            }
        #expect(try await storage.unfinishedGames().first?.moves.map(\.notation) == ["f2"])
        await storage.close()
        for server in servers { await server.stop() }
    }

    @Test func aTakebackInARatedGameIsRefused() async throws {
        let server = try await TestServer()
        let played = try await PlayedGame(annServer: server, bobServer: server, plies: 2)
        #expect(
            try await played.clients[.x]!.exchange(#"{"type":"takeback","game":\#(played.game)}"#)
                == #"{"code":"bad_request","message":"takebacks are for casual games","type":"error"}"#)
        await server.stop()
    }
}

@Suite struct PlannedRestartTests {
    /// A server stopped in order stores each game's clocks as they stand: after the restart the
    /// side to move has the 20 s it used before the stop charged, and nothing for the time the
    /// server was down.
    @Test func aGameResumesWithTheTimeUsedBeforeTheStop() async throws {
        let first = try await TestServer()
        let played = try await PlayedGame(annServer: first, bobServer: first, plies: 2)
        first.clock.advance(by: .seconds(20))
        await first.stop()
        let second = try await TestServer(database: first.database)
        for side in Side.allCases {
            let client = try second.client()
            #expect(
                try await client.exchange(#"{"type":"auth","token":"\#(played.tokens[side]!)"}"#).contains(
                    "welcome"))
            guard case .game(let state) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected the game")
            }
            #expect(state.moves.count == 2 && state.clock == Clocks(x: 283_000, o: 303_000))
        }
        await second.stop()
    }
}
