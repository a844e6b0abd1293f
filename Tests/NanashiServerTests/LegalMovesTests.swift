import Foundation
import Logging
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import NanashiTransport
import Synchronization
import Testing

@testable import NanashiServer

/// Moves as the wire lists them: `["f2","a7c5"]`.
private func wireList(_ moves: [Move]) -> String {
    "[" + moves.map { "\"\($0)\"" }.joined(separator: ",") + "]"
}

/// The start of a line up to the end of its clocks (`{"clock":{"o":…,"x":…}`), which run on the
/// server's own clock and cannot be known in advance; the test checks the rest byte for byte.
private func clocks(_ line: String) throws -> String {
    guard line.hasPrefix(#"{"clock":{"o":"#), let end = line.firstIndex(of: "}") else {
        throw TestClient.Failure(description: "no clocks first in \(line)")
    }
    return String(line[...end])
}

/// Each side's lines, as its connection would get them.
private final class Received: Sendable {
    private let lines = Mutex<[Side: [String]]>([:])

    func append(_ line: String, for side: Side) { lines.withLock { $0[side, default: []].append(line) } }

    subscript(side: Side) -> [String] { lines.withLock { $0[side] ?? [] } }
}

/// A stored game between ann (x) and bob (o) from `fen`, each side's lines collected.
private func gameFrom(_ fen: String, storage: SQLiteStorage) async throws -> (Game, Received) {
    let ann = try await storage.createPlayer(name: "ann", passwordHash: "-", now: Date(), token: nil)
    let bob = try await storage.createPlayer(name: "bob", passwordHash: "-", now: Date(), token: nil)
    let control = TimeControl(initial: 60, increment: 0)
    let id = try await storage.createGame(xID: ann.id!, oID: bob.id!, control: control, now: Date())
    let lines = Received()
    var outboxes: [Side: Outbox] = [:]
    for (number, side) in Side.allCases.enumerated() {
        outboxes[side] = Outbox(id: number) { event in
            if case .line(let line) = event { lines.append(line, for: side) }
        }
    }
    let game = Game(
        id: id, control: control,
        players: [
            .x: .init(id: ann.id!, name: "ann", rating: 1500),
            .o: .init(id: bob.id!, name: "bob", rating: 1500),
        ],
        position: try Position(fen: fen), outboxes: outboxes, storage: storage, settings: ServerSettings(),
        logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() }
    ) { _ in }
    return (game, lines)
}

@Suite struct LegalMovesTests {
    @Test func thePlayerToMoveIsToldTheirMovesAndEveryoneThePiecesTurned() async throws {
        let server = try await TestServer()
        let ann = try server.client()
        let bob = try server.client()
        let annToken = try await register(ann, "ann")
        let bobToken = try await register(bob, "bob")
        for client in [ann, bob] {
            #expect(
                try await client.exchange(#"{"type":"seek","initial":60,"increment":1}"#)
                    == #"{"type":"seeking"}"#)
        }
        let annStart = try await ann.line()
        let bobStart = try await bob.line()
        let annIsX = annStart.hasPrefix(#"{"color":"x""#)
        let (x, o) = annIsX ? (ann, bob) : (bob, ann)
        let (xStart, oStart) = annIsX ? (annStart, bobStart) : (bobStart, annStart)
        let (xName, oName) = annIsX ? ("ann", "bob") : ("bob", "ann")
        let oToken = annIsX ? bobToken : annToken
        guard case .start(let start) = try Wire.reply(fromLine: Array(xStart.utf8)).message else {
            throw TestClient.Failure(description: xStart)
        }
        let game = start.game

        // Only x, to move, is told the moves: clones by destination from a1, then jumps by origin.
        #expect(
            xStart
                == #"{"color":"x","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":\#(game),"increment":1,"initial":60,"legal":["f1","f2","g2","a6","b6","b7","g1e1","g1e2","g1e3","g1f3","g1g3","a7a5","a7b5","a7c5","a7c6","a7c7"],"opponent":{"name":"\#(oName)","rating":1500},"type":"start"}"#
        )
        #expect(
            oStart
                == #"{"color":"o","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":\#(game),"increment":1,"initial":60,"opponent":{"name":"\#(xName)","rating":1500},"type":"start"}"#
        )

        // A clone that turns nothing: the mover's copy has the id, o's copy o's moves.
        x.send(#"{"type":"move","game":\#(game),"move":"f2","id":1}"#)
        let xSees = try await x.line()
        #expect(
            xSees
                == (try clocks(xSees))
                + #","converted":[],"fen":"x5o/7/7/7/7/5x1/o5x o 0 1","game":\#(game),"id":1,"move":"f2","ply":1,"type":"moved"}"#
        )
        let oSees = try await o.line()
        #expect(
            oSees
                == (try clocks(oSees))
                + #","converted":[],"fen":"x5o/7/7/7/7/5x1/o5x o 0 1","game":\#(game),"legal":["b1","a2","b2","f6","g6","f7","a1c1","a1c2","a1a3","a1b3","a1c3","g7e5","g7f5","g7g5","g7e6","g7e7"],"move":"f2","ply":1,"type":"moved"}"#
        )

        // o jumps next to x's reach; x jumps beside it and turns it.
        o.send(#"{"type":"move","game":\#(game),"move":"a1c1"}"#)
        var position = try Position.start.replaying(["f2", "a1c1"]).position
        let oMoved = try await o.line()
        #expect(
            oMoved
                == (try clocks(oMoved))
                + #","converted":[],"fen":"x5o/7/7/7/7/5x1/2o3x x 1 2","game":\#(game),"move":"a1c1","ply":2,"type":"moved"}"#
        )
        let xTold = try await x.line()
        #expect(
            xTold
                == (try clocks(xTold))
                + #","converted":[],"fen":"x5o/7/7/7/7/5x1/2o3x x 1 2","game":\#(game),"legal":\#(wireList(position.legalMoves())),"move":"a1c1","ply":2,"type":"moved"}"#
        )
        x.send(#"{"type":"move","game":\#(game),"move":"f2d2"}"#)
        position = try position.play(.jump(from: Square("f2")!, to: Square("d2")!))
        let xTurned = try await x.line()
        #expect(
            xTurned
                == (try clocks(xTurned))
                + #","converted":["c1"],"fen":"x5o/7/7/7/7/3x3/2x3x o 2 2","game":\#(game),"move":"f2d2","ply":3,"type":"moved"}"#
        )
        let oTurned = try await o.line()
        #expect(
            oTurned
                == (try clocks(oTurned))
                + #","converted":["c1"],"fen":"x5o/7/7/7/7/3x3/2x3x o 2 2","game":\#(game),"legal":\#(wireList(position.legalMoves())),"move":"f2d2","ply":3,"type":"moved"}"#
        )

        // Back on another connection, o (to move) gets the game with their moves; x without.
        let oAgain = try server.client()
        #expect(
            try await oAgain.exchange(#"{"type":"auth","token":"\#(oToken)"}"#).contains(#""type":"welcome""#)
        )
        let oGame = try await oAgain.line()
        #expect(
            oGame
                == (try clocks(oGame))
                + #","color":"o","fen":"x5o/7/7/7/7/3x3/2x3x o 2 2","game":\#(game),"increment":1,"initial":60,"legal":\#(wireList(position.legalMoves())),"moves":["f2","a1c1","f2d2"],"opponent":{"name":"\#(xName)","rating":1500},"type":"game"}"#
        )
        // A watcher gets neither `legal` nor an id, but the pieces turned.
        let watcher = try server.client()
        let watched = try await watcher.exchange(#"{"type":"watch","game":\#(game)}"#)
        #expect(!watched.contains("legal") && watched.contains(#""moves":["f2","a1c1","f2d2"]"#))
        oAgain.send(#"{"type":"move","game":\#(game),"move":"g7f5","id":"j"}"#)
        position = try position.play(.jump(from: Square("g7")!, to: Square("f5")!))
        let oJumped = try await oAgain.line()
        let body = #","converted":[],"fen":"\#(position.fen)","game":\#(game),"#
        #expect(oJumped == (try clocks(oJumped)) + body + #""id":"j","move":"g7f5","ply":4,"type":"moved"}"#)
        let seen = try await watcher.line()
        #expect(seen == (try clocks(oJumped)) + body + #""move":"g7f5","ply":4,"type":"moved"}"#)
        await server.stop()
    }

    /// A move the list leaves out is refused and changes nothing; one it holds (the last, a jump)
    /// is played, and the next player is told theirs and the pieces it turned.
    @Test func theListedMovesAreTheOnesTheServerAccepts() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        let position = try await playGreedily(paired, plies: 2)
        let mover = paired.clients[position.sideToMove]!
        // A jump that is not in the list (too far) is refused, and the next reply is the move's.
        mover.send(#"{"type":"move","game":\#(paired.game),"move":"a7a4","id":1}"#)
        let refused = try await mover.line()
        #expect(refused.hasPrefix(#"{"code":"illegal_move","id":1,"#))
        let listed = position.legalMoves()
        #expect(!listed.contains(.jump(from: Square("a7")!, to: Square("a4")!)))
        mover.send(#"{"type":"move","game":\#(paired.game),"move":"\#(listed.last!)","id":2}"#)
        guard case .moved(let moved) = try await mover.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        #expect(moved.move == listed.last! && moved.legal == nil)
        guard case .moved(let told) = try await paired.clients[position.sideToMove.opponent]!.reply().message
        else { throw TestClient.Failure(description: "expected moved") }
        #expect(told.legal == (try position.play(listed.last!)).legalMoves())
        #expect(told.converted == position.captures(by: listed.last!))
        await server.stop()
    }

    /// A player left without a clone or a jump is told `["0000"]`, and the pass is played.
    @Test func aForcedPassIsTheOnlyMoveListed() async throws {
        let database = try TemporaryDatabase()
        let storage = try SQLiteStorage(path: database.path)
        // o's one piece on a1 is walled in once x fills c3.
        let (game, lines) = try await gameFrom("7/7/7/7/xx5/xxx4/oxx4 x 0 1", storage: storage)
        let id = await game.id
        await game.begin()
        #expect(
            lines[.o]
                == [
                    #"{"color":"o","fen":"7/7/7/7/xx5/xxx4/oxx4 x 0 1","game":\#(id),"increment":0,"initial":60,"opponent":{"name":"ann","rating":1500},"type":"start"}"#
                ])
        try await game.play("c3", by: .x, requestID: nil)
        let told = try #require(lines[.o].last)
        #expect(
            told
                == (try clocks(told))
                + #","converted":[],"fen":"7/7/7/7/xxx4/xxx4/oxx4 o 0 1","game":\#(id),"legal":["0000"],"move":"c3","ply":1,"type":"moved"}"#
        )
        // Any other move is refused; the pass is played, and x is told its moves again.
        await #expect(throws: ProtocolError.self) { try await game.play("a1c1", by: .o, requestID: nil) }
        try await game.play("0000", by: .o, requestID: nil)
        let back = try #require(lines[.x].last)
        let position = try Position(fen: "7/7/7/7/xxx4/xxx4/oxx4 x 1 2")
        #expect(
            back
                == (try clocks(back))
                + #","converted":[],"fen":"\#(position.fen)","game":\#(id),"legal":\#(wireList(position.legalMoves())),"move":"0000","ply":2,"type":"moved"}"#
        )
        await game.halt()
    }

    /// The move that ends the game by the rules tells the next player `[]`, then the end.
    @Test func aMoveThatEndsTheGameListsNoMoves() async throws {
        let database = try TemporaryDatabase()
        let storage = try SQLiteStorage(path: database.path)
        let (game, lines) = try await gameFrom("7/7/7/7/7/7/o1x4 x 0 1", storage: storage)
        let id = await game.id
        await game.begin()
        try await game.play("b1", by: .x, requestID: .integer(3))
        let (mine, theirs) = (lines[.x], lines[.o])
        try #require(mine.count == 3 && theirs.count == 3)
        #expect(
            mine[1]
                == (try clocks(mine[1]))
                + #","converted":["a1"],"fen":"7/7/7/7/7/7/xxx4 o 0 1","game":\#(id),"id":3,"move":"b1","ply":1,"type":"moved"}"#
        )
        #expect(
            theirs[1]
                == (try clocks(mine[1]))
                + #","converted":["a1"],"fen":"7/7/7/7/7/7/xxx4 o 0 1","game":\#(id),"legal":[],"move":"b1","ply":1,"type":"moved"}"#
        )
        #expect(theirs[2].hasPrefix(#"{"game":\#(id),"outcome":{"reason":"pieces","winner":"x"},"#))
    }
}
