import Foundation
import GRDB
import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

/// The position of the layout `cross`.
private let cross = Layout.named("cross")!.position

private func moved(_ client: TestClient) async throws -> Moved {
    guard case .moved(let moved) = try await client.reply().message else {
        throw TestClient.Failure(description: "expected moved")
    }
    return moved
}

private func started(_ line: String) throws -> GameStart {
    guard case .start(let start) = try Wire.reply(fromLine: Array(line.utf8)).message else {
        throw TestClient.Failure(description: "expected start: \(line)")
    }
    return start
}

/// Every game's stored start (`game.start_fen`, `nil` for the standard one), by id.
private func storedStarts(_ database: TemporaryDatabase) throws -> [Int64: String?] {
    try DatabaseQueue(path: database.path).read { db in
        let rows = try Row.fetchAll(db, sql: "SELECT id, start_fen FROM game")
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"], $0["start_fen"]) })
    }
}

@Suite struct EngineLayoutTests {
    /// A game against the engine from `cross`: `start` has that position and says the game is
    /// casual, the engine answers with a legal move there, the start is stored, and the game
    /// resumes from it after a restart; then it is analysed from it, and its rematch starts there.
    @Test func aGameAgainstTheEngineStartsFromALayout() async throws {
        let database = try TemporaryDatabase()
        var server = try await TestServer(database: database)
        var ann = try server.client()
        let token = try await register(ann, "ann")
        #expect(
            try await ann.exchange(
                #"{"type":"seek","ai":1,"color":"x","initial":60,"increment":0,"layout":"cross","id":1}"#)
                == #"{"id":1,"type":"seeking"}"#)
        let line = try await ann.line()
        let game = try started(line).game
        #expect(
            line
                == #"{"color":"x","fen":"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1","game":\#(game),"increment":0,"initial":60,"legal":\#(Wire.movesArray(cross.legalMoves())),"opponent":{"name":"AI level 1","rating":1500},"rated":false,"type":"start"}"#
        )
        var moves = [cross.legalMoves()[0]]
        ann.send(#"{"type":"move","game":\#(game),"move":"\#(moves[0])"}"#)
        #expect(try await moved(ann).move == moves[0])
        var position = try cross.play(moves[0])
        let answer = try await moved(ann)
        #expect(position.legalMoves().contains(answer.move))
        position = try position.play(answer.move)
        moves.append(answer.move)
        #expect(answer.fen == position.fen && answer.legal == position.legalMoves())
        #expect(try storedStarts(database) == [game: cross.fen])
        await server.stop()

        // Resumed after a restart: from `cross`, still casual, the engine seated again.
        server = try await TestServer(database: database) { $0.analysisDepth = 2 }
        ann = try server.client()
        #expect(try await ann.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        let resumed = try await ann.line()
        guard case .game(let state) = try Wire.reply(fromLine: Array(resumed.utf8)).message else {
            throw TestClient.Failure(description: resumed)
        }
        #expect(state.start == cross.fen && state.moves == moves && state.fen == position.fen && !state.rated)
        #expect(resumed.contains(#""rated":false,"start":"\#(cross.fen)","type":"game""#), "\(resumed)")
        let next = position.legalMoves()[0]
        ann.send(#"{"type":"move","game":\#(game),"move":"\#(next)"}"#)
        #expect(try await moved(ann).ply == 3)
        position = try position.play(next)
        let reply = try await moved(ann)
        #expect(reply.ply == 4 && position.legalMoves().contains(reply.move))
        moves += [next, reply.move]
        ann.send(#"{"type":"resign","game":\#(game)}"#)
        #expect(try await ann.line().contains(#""rating":{"after":1500,"before":1500},"type":"end""#))

        // Analysed from `cross`: the evaluations are those of its positions.
        let analysed = try await ann.exchange(#"{"type":"analyse","game":\#(game)}"#)
        guard case .analysis(let analysis) = try Wire.reply(fromLine: Array(analysed.utf8)).message else {
            throw TestClient.Failure(description: analysed)
        }
        let positions =
            try [cross] + moves.indices.map { try cross.replaying(moves[...$0].map(\.description)).position }
        let engine = Engine()
        #expect(
            analysis.evals
                == positions.map { position in
                    engine.newGame()
                    let score = engine.search(position, limits: .depth(2)).score
                    return position.sideToMove == .x ? score : -score
                })

        // The rematch: at once, colours swapped, from `cross` again, casual.
        #expect(
            try await ann.exchange(#"{"type":"rematch","game":\#(game)}"#)
                == #"{"game":\#(game),"type":"rematch_offered"}"#)
        let rematch = try started(try await ann.line())
        #expect(rematch.fen == cross.fen && rematch.color == .o && !rematch.rated && rematch.game != game)
        #expect(try storedStarts(database)[rematch.game] == cross.fen)
        await server.stop()
    }

    /// From a FEN of the player's own, x to move and the player o: the engine moves first, a
    /// legal move of that position.
    @Test func aGameAgainstTheEngineStartsFromAFENOfOnesOwn() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let fen = "x5o/7/7/3o3/7/7/o5x x 0 1"
        #expect(
            try await ann.exchange(
                #"{"type":"seek","ai":2,"color":"o","initial":60,"increment":0,"fen":"\#(fen)"}"#)
                == #"{"type":"seeking"}"#)
        let line = try await ann.line()
        let game = try started(line).game
        #expect(
            line
                == #"{"color":"o","fen":"\#(fen)","game":\#(game),"increment":0,"initial":60,"opponent":{"name":"AI level 2","rating":1500},"rated":false,"type":"start"}"#
        )
        let position = try Position(fen: fen)
        let first = try await moved(ann)
        #expect(first.ply == 1 && position.legalMoves().contains(first.move))
        let after = try position.play(first.move)
        #expect(first.fen == after.fen && first.legal == after.legalMoves())
        #expect(try storedStarts(server.database) == [game: fen])
        await server.stop()
    }

    /// A bad start gets `bad_request` with the reason (a line too long for the server,
    /// `line_too_long`), and nothing starts: no game is stored, the connection goes on, and a
    /// good seek afterwards plays.
    @Test func aBadStartForTheEngineStartsNothing() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        _ = try await register(ann, "ann")
        let seek = #"{"type":"seek","id":7,"ai":3,"initial":60,"increment":0,"#
        let refusals: [(String, String)] = [
            (
                #""fen":"\#(String(repeating: "x", count: 200))"}"#,
                "a start FEN is at most 100 bytes, not 200"
            ),
            (#""fen":"x5o/7 x"}"#, "bad FEN: the board must have 7 ranks separated by '/', not 2"),
            (
                #""fen":"x6/7/7/7/7/7/7 o 0 1"}"#,
                "the game is over at this FEN: x wins (o has no pieces left)"
            ),
            (
                #""fen":"x5o/7/7/7/7/7/o5x x 0 1","layout":"cross"}"#,
                "a seek names a layout or a fen, not both"
            ),
            (#""layout":"nowhere"}"#, #"no layout is named 'nowhere'; {\"type\":\"layouts\"} lists them"#),
        ]
        for (fields, reason) in refusals {
            #expect(
                try await ann.exchange(seek + fields)
                    == #"{"code":"bad_request","id":7,"message":"\#(reason)","type":"error"}"#)
        }
        // 10,000 characters: longer than any line the server reads.
        #expect(
            try await ann.exchange(seek + #""fen":"\#(String(repeating: "x", count: 10_000))"}"#)
                == #"{"code":"line_too_long","message":"a line may have at most 4096 bytes","type":"error"}"#)
        // A FEN of one's own is for the computer and challenges, not a seek for a person.
        #expect(
            try await ann.exchange(#"{"type":"seek","fen":"x5o/7/7/7/7/7/o5x x 0 1"}"#)
                == #"{"code":"bad_request","message":"a seek for a person starts from a layout; a fen is for challenges and ai","type":"error"}"#
        )
        #expect(try await ann.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        #expect(try storedStarts(server.database).isEmpty)
        #expect(try await ann.exchange(seek + #""layout":"cross"}"#) == #"{"id":7,"type":"seeking"}"#)
        #expect(try started(try await ann.line()).fen == cross.fen)
        await server.stop()
    }
}
