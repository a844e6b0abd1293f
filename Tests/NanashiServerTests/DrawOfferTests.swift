import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import Testing

@testable import NanashiServer

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

        #expect(
            try await x.exchange(#"{"type":"draw","game":\#(g),"id":"d1"}"#)
                == #"{"game":\#(g),"id":"d1","type":"draw_offered"}"#)
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
