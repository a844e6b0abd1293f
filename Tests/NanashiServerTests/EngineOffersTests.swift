import Foundation
import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer

@Suite struct EngineOffersTests {
    /// The engine grants a takeback at once: asked after its reply, the player's move and the
    /// reply go (the `game` has none, it is x's move again), and the engine answers the next move
    /// as before, searching it afresh (it had searched that ply already). A draw offer is
    /// declined at once.
    @Test func theEngineGrantsTakebacksAndDeclinesDraws() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        ann.send(#"{"type":"seek","ai":1,"color":"x","initial":600,"increment":0}"#)
        var start: GameStart?
        while start == nil {
            if case .start(let started) = try await ann.reply().message { start = started }
        }
        let game = try #require(start).game
        /// Plays `move` and returns the engine's reply.
        func play(_ move: String) async throws -> Move {
            ann.send(#"{"type":"move","game":\#(game),"move":"\#(move)"}"#)
            var replies: [Moved] = []
            while replies.count < 2 {
                guard case .moved(let moved) = try await ann.reply().message else {
                    throw TestClient.Failure(description: "expected moved")
                }
                replies.append(moved)
            }
            return replies[1].move
        }
        _ = try await play("f2")
        try await expectOffered("draw", by: ann, game: game, id: "d")
        #expect(try await ann.line() == #"{"game":\#(game),"type":"draw_declined"}"#)
        try await expectOffered("takeback", by: ann, game: game, id: "t")
        guard case .game(let back) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected game")
        }
        #expect(
            back.moves.isEmpty && back.fen == Position.start.fen && back.legal == Position.start.legalMoves())
        // A draw offered again at once is too soon: the moves since the last one are counted from
        // the ply the takeback went back to (counted from the ply before it, the server trapped).
        #expect(
            try await ann.exchange(#"{"type":"draw","game":\#(game)}"#)
                == #"{"code":"rate_limited","message":"you may offer a draw again after 10 more moves of yours","type":"error"}"#
        )
        // The engine searches its turn again, from the position as it is now.
        let reply = try await play("b6")
        let position = try Position.start.play(try Move(notation: "b6"))
        #expect(position.legalMoves().contains(reply))
        await server.stop()
    }
}
