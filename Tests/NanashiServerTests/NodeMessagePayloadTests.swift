import NanashiCluster
import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer

@Suite struct NodeMessagePayloadTests {
    /// Every message, in its short form or as JSON, reads back as it was written: a move with
    /// spaces and any kind of request id (or none), a line with any text.
    @Test func everyMessageRoundTrips() throws {
        let messages: [NodeMessage] = [
            .started(game: 1, player: 2, side: .o, host: 3),
            .line(to: .player(7), text: #"{"game":12,"move":"f2","type":"moved"}"#),
            .line(to: .watcher(-4), text: "a line with spaces, é and \"quotes\"\\"),
            .line(to: .player(8), text: ""),
            .ended(game: 12, player: 7),
            .watchEnded(game: 12, watcher: 3),
            .hosted(game: 12, node: 2),
            .loggedIn(player: 7, node: 1, ticket: 99),
            .loggedOut(player: 7, digest: [0, 1, 255], node: 2), .loggedOut(player: 7, digest: nil, node: 2),
            .move(game: 12, side: .x, player: 7, move: "f2", id: nil, node: 1, relay: 1),
            .move(game: 12, side: .o, player: 7, move: "a1 b3 é", id: .integer(-5), node: 1, relay: 2),
            .move(game: 12, side: .x, player: 7, move: "", id: .number(2.5), node: 1, relay: 3),
            .move(game: 12, side: .x, player: 7, move: "g7g5", id: .string("req 1 é"), node: 3, relay: 40),
            .move(game: 12, side: .x, player: 7, move: "g7g5", id: .string(""), node: 3, relay: Int64.max),
            .resign(game: 12, side: .o, player: 7, id: .string("r"), node: 1, relay: 5),
            .present(game: 12, side: .x, player: 7, node: 2),
            .absent(game: 12, side: .o, node: 2),
            .watch(game: 12, watcher: 5, id: .integer(1), node: 2),
            .unwatch(game: 12, watcher: 5, node: 2),
            .rematch(game: 12, player: 7, id: nil, node: 2),
            .movedOn(player: 7, node: 2),
            .listening(node: 3),
        ]
        for message in messages {
            let payload = message.payload()
            #expect(try NodeMessage(payload: payload[...]) == message, "\(payload)")
        }
        // The hot ones take the short form, exactly.
        #expect(NodeMessage.line(to: .player(7), text: "{}").payload() == "P7 {}")
        #expect(
            NodeMessage.move(game: 12, side: .x, player: 7, move: "a1b3", id: .integer(4), node: 1, relay: 9)
                .payload() == "M12 x 7 1 9 4 a1b3i4")
        #expect(NodeMessage.ended(game: 12, player: 7).payload() == "E12 7")
    }

    /// A request's id never reaches the database as it is: control bytes and `%` are escaped,
    /// and read back; an id a node before escaping wrote (`s`) is still read.
    @Test func aRequestIDIsEscaped() throws {
        let text = "a\u{0}b%c\n\u{7F}é"
        let move = NodeMessage.move(
            game: 12, side: .x, player: 7, move: "f2", id: .string(text), node: 1, relay: 9)
        #expect(move.payload() == "M12 x 7 1 9 2 f2qa%00b%25c%0A%7Fé")
        #expect(!move.payload().utf8.contains(0))
        #expect(try NodeMessage(payload: move.payload()[...]) == move)
        #expect(
            try NodeMessage(payload: "M12 x 7 1 9 2 f2sold id"[...])
                == .move(game: 12, side: .x, player: 7, move: "f2", id: .string("old id"), node: 1, relay: 9))
        for bad in [
            "M12 x 7 1 9 2 f2q%", "M12 x 7 1 9 2 f2q%4", "M12 x 7 1 9 2 f2q%zz", "M12 x 7 1 9 2 f2q%FF",
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try NodeMessage(payload: bad[...]) }
        }
    }

    /// A payload no node writes is refused, not misread.
    @Test func aBadPayloadIsRefused() {
        for bad in [
            "", "Q1 x", "P x", "M12 x 7 1 9 a1", "M12 z 7 1 3 2 f2", "E12", "E12 x", "M12 x 7 1 3 2 f2z",
            "M12 x 7 1 2 f2", "M12 x 7 1 r 2 f2", "{",
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try NodeMessage(payload: bad[...]) }
        }
    }
}
