import Foundation
import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiProtocol

@Test(arguments: [
    (Reply(.pong, id: .integer(7)), #"{"id":7,"type":"pong"}"#),
    (Reply(.seeking, id: .string("a/1")), #"{"id":"a/1","type":"seeking"}"#),
    (Reply(.shutdown), #"{"type":"shutdown"}"#),
    (
        Reply(.error(ProtocolError(.idleTimeout, "idle"))),
        #"{"code":"idle_timeout","message":"idle","type":"error"}"#
    ),
    (
        Reply(.welcome(Welcome(name: "ann", token: "T", rating: 1500, rd: 350, games: 0))),
        #"{"games":0,"name":"ann","rating":1500,"rd":350,"token":"T","type":"welcome"}"#
    ),
    (
        Reply(.error(ProtocolError(.notYourTurn, "wait"))),
        #"{"code":"not_your_turn","message":"wait","type":"error"}"#
    ),
    (
        Reply(
            .moved(
                Moved(
                    game: 3, move: "f2", ply: 1, fen: "x5o/7/7/7/7/5x1/o5x o 0 1", clock: Clocks(x: 9, o: 10))
            )),
        #"{"clock":{"o":10,"x":9},"converted":[],"fen":"x5o/7/7/7/7/5x1/o5x o 0 1","game":3,"move":"f2","ply":1,"type":"moved"}"#
    ),
    // The copy of the player to move next carries their legal moves; every copy the pieces turned.
    (
        Reply(
            .moved(
                Moved(
                    game: 3, move: "f2d2", ply: 3, fen: "x5o/7/7/7/7/7/3x1x1 o 1 2",
                    clock: Clocks(x: 9, o: 10),
                    converted: Bitboard([Square("c1")!, Square("b2")!]), legal: [.pass]))),
        #"{"clock":{"o":10,"x":9},"converted":["c1","b2"],"fen":"x5o/7/7/7/7/7/3x1x1 o 1 2","game":3,"legal":["0000"],"move":"f2d2","ply":3,"type":"moved"}"#
    ),
    (
        Reply(
            .moved(
                Moved(
                    game: 3, move: "g1", ply: 9, fen: "7/7/7/7/7/7/xxxxxxx o 0 5", clock: Clocks(x: 9, o: 10),
                    converted: Bitboard([Square("f1")!]), legal: [])),
            id: .integer(4)),
        #"{"clock":{"o":10,"x":9},"converted":["f1"],"fen":"7/7/7/7/7/7/xxxxxxx o 0 5","game":3,"id":4,"legal":[],"move":"g1","ply":9,"type":"moved"}"#
    ),
    (
        Reply(
            .start(
                GameStart(
                    game: 5, color: .x, opponent: Opponent(name: "bob", rating: 1500),
                    fen: Position.start.fen,
                    control: TimeControl(initial: 60, increment: 1), legal: Position.start.legalMoves()))),
        #"{"color":"x","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":5,"increment":1,"initial":60,"legal":["f1","f2","g2","a6","b6","b7","g1e1","g1e2","g1e3","g1f3","g1g3","a7a5","a7b5","a7c5","a7c6","a7c7"],"opponent":{"name":"bob","rating":1500},"type":"start"}"#
    ),
    (
        Reply(
            .start(
                GameStart(
                    game: 5, color: .o, opponent: Opponent(name: "ann", rating: 1500),
                    fen: Position.start.fen,
                    control: TimeControl(initial: 60, increment: 1)))),
        #"{"color":"o","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":5,"increment":1,"initial":60,"opponent":{"name":"ann","rating":1500},"type":"start"}"#
    ),
    (
        Reply(
            .game(
                GameState(
                    game: 5, color: .o, opponent: Opponent(name: "ann", rating: 1500),
                    fen: "7/7/7/7/7/1x5/o6 o 0 1", moves: ["b2"], clock: Clocks(x: 1, o: 2),
                    control: TimeControl(initial: 60, increment: 1), legal: [.pass]))),
        #"{"clock":{"o":2,"x":1},"color":"o","fen":"7/7/7/7/7/1x5/o6 o 0 1","game":5,"increment":1,"initial":60,"legal":["0000"],"moves":["b2"],"opponent":{"name":"ann","rating":1500},"type":"game"}"#
    ),
    // A casual game says so in `start` and `game`, between `opponent` and `start`/`type`.
    (
        Reply(
            .start(
                GameStart(
                    game: 5, color: .o, opponent: Opponent(name: "ann", rating: 1500),
                    fen: Position.start.fen, control: TimeControl(initial: 60, increment: 1), rated: false)),
            id: .integer(2)),
        #"{"color":"o","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":5,"id":2,"increment":1,"initial":60,"opponent":{"name":"ann","rating":1500},"rated":false,"type":"start"}"#
    ),
    (
        Reply(
            .game(
                GameState(
                    game: 5, color: .x, opponent: Opponent(name: "ann", rating: 1500),
                    fen: "x5o/7/7/3o3/7/7/o5x x 0 1", moves: [], clock: Clocks(x: 1, o: 2),
                    control: TimeControl(initial: 60, increment: 1), legal: ["e4"],
                    start: "x5o/7/7/3o3/7/7/o5x x 0 1", rated: false))),
        #"{"clock":{"o":2,"x":1},"color":"x","fen":"x5o/7/7/3o3/7/7/o5x x 0 1","game":5,"increment":1,"initial":60,"legal":["e4"],"moves":[],"opponent":{"name":"ann","rating":1500},"rated":false,"start":"x5o/7/7/3o3/7/7/o5x x 0 1","type":"game"}"#
    ),
    // A player who refuses challenges hears it on logging in.
    (
        Reply(
            .welcome(
                Welcome(name: "eve", token: "t", rating: 1500, rd: 350, games: 0, acceptsChallenges: false))),
        #"{"challenges":false,"games":0,"name":"eve","rating":1500,"rd":350,"token":"t","type":"welcome"}"#
    ),
    (
        Reply(
            .end(
                GameEnd(
                    game: 3, outcome: Outcome(winner: nil, reason: .fiftyMoveRule),
                    rating: RatingChange(before: 1500, after: 1501)))),
        #"{"game":3,"outcome":{"reason":"fifty","winner":null},"rating":{"after":1501,"before":1500},"type":"end"}"#
    ),
    (
        Reply(
            .profile(
                Profile(
                    name: "ann", rating: 1500, rd: 350, rank: nil, games: 0, wins: 0, losses: 0, draws: 0,
                    recent: []))),
        #"{"computer":[],"draws":0,"games":0,"losses":0,"name":"ann","rank":null,"rating":1500,"rd":350,"recent":[],"type":"profile","wins":0}"#
    ),
    (
        Reply(
            .analysis(
                GameAnalysis(
                    game: 9, depth: 6, evals: [0, -40, 310],
                    mistakes: [.init(ply: 2, played: "a1c3", best: "b2", loss: 350)]))),
        #"{"accuracy":{"o":{"accurate":0,"average_loss":350,"moves":1,"percent":0},"x":{"accurate":1,"average_loss":40,"moves":1,"percent":100}},"depth":6,"evals":[0,-40,310],"game":9,"mistakes":[{"best":"b2","loss":350,"played":"a1c3","ply":2}],"type":"analysis","unit":"centipieces"}"#
    ),
])
func repliesAreWrittenByteForByte(reply: Reply, line: String) throws {
    #expect(Wire.line(reply) == line)
    #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
}

/// The pieces turned and the legal moves a `moved` may carry: none and none, some and an empty
/// list (the game is over), all and the forced pass, none and a whole list.
private let turnedAndLegal: [(Bitboard, [Move]?)] = [
    (.empty, nil), (Bitboard([Square("a1")!, Square("g7")!, Square("d4")!]), []), (.all, [.pass]),
    (.empty, Position.start.legalMoves()),
]

/// Ids and moves, and whether a `moved` with them is written field by field.
private let idsAndMoves: [(RequestID?, Move, Bool)] = [
    (RequestID?.none, "f2", true),
    (.integer(0), "a7c5", true),
    (.integer(-12), "0000", true),
    (.integer(.max), "f2", true),
    (.integer(.min), "f2", true),
    (.string("a/1 b"), "f2", true),
    (.string(""), "f2", true),
    (.string(#"say "hi""#), "f2", false),
    (.string(#"back\slash"#), "f2", false),
    (.string("tab\there\u{1}"), "f2", false),
    (.string("caf\u{e9}"), "f2", false),
    (.number(2.5), "f2", false),
    (.number(-0.1), "f2", false),
]

/// `moved` is written field by field, not by the encoder: byte for byte the same line, with the
/// encoder taking over only for what needs escaping or a non-integral id.
@Test(arguments: turnedAndLegal, idsAndMoves)
func movedIsWrittenAsTheEncoderWouldWriteIt(turned: (Bitboard, [Move]?), text: (RequestID?, Move, Bool))
    throws
{
    let (id, move, direct) = text
    let moved = Moved(
        game: 1_234_567, move: move, ply: 101, fen: "x5o/7/2-1-2/7/7/5x1/o5x o 12 51",
        clock: Clocks(x: -1, o: 300_000), converted: turned.0, legal: turned.1)
    let reply = Reply(.moved(moved), id: id)
    #expect((Wire.movedLine(moved, id: id) != nil) == direct)
    let line = Wire.line(reply)
    #expect(line == Wire.encode(reply))
    #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
    // Read back field by field exactly when it was written so, and as the decoder reads it.
    #expect((Wire.movedReply(fromLine: Array(line.utf8)) != nil) == direct)
    #expect(try JSONDecoder().decode(Reply.self, from: Data(line.utf8)) == reply)
}

/// So is `move`, on the client's side, and the server reads it back field by field.
@Test(arguments: [
    (RequestID?.none, "f2", true),
    (.integer(41), "a7c5", true),
    (.integer(.min), "0000", true),
    (.string("m-1"), "f2", true),
    (.string(#"quote "and" back\slash"#), "f2", false),
    (.number(1e300), "f2", false),
    (.integer(3), "f\\2", false),
])
func moveIsWrittenAndReadAsTheCoderWould(id: RequestID?, move: String, direct: Bool) throws {
    let request = Request(.move(game: -9, move: move), id: id)
    let line = Wire.line(request)
    #expect(line == Wire.encode(request))
    #expect((Wire.moveRequest(fromLine: Array(line.utf8)) != nil) == direct)
    #expect(try Wire.request(fromLine: Array(line.utf8)) == request)
    #expect(try JSONDecoder().decode(Request.self, from: Data(line.utf8)) == request)
}

/// Lines the field-by-field readers leave to the decoder: anything but the canonical layout.
@Test(arguments: [
    #"{"game":1, "move":"f2","type":"move"}"#,
    #"{"game":01,"move":"f2","type":"move"}"#,
    #"{"game":-0,"move":"f2","type":"move"}"#,
    #"{"game":+1,"move":"f2","type":"move"}"#,
    #"{"game":9223372036854775808,"move":"f2","type":"move"}"#,
    #"{"game":1,"move":"f2","type":"move"} "#,
    #"{"game":1,"move":"f\u0032","type":"move"}"#,
    #"{"game":1,"id":1.5,"move":"f2","type":"move"}"#,
    #"{"game":1,"id":"a,"move":"f2","type":"move"}"#,
    #"{"game":1,"move":"f2","type":"move","x":1}"#,
    #"{"game":1,"move":"f2","type":"moved"}"#,
    #"{"game":1,"move":"f2","type":"move""#,
    #"{"move":"f2","game":1,"type":"move"}"#,
    "{\"game\":1,\"move\":\"f\u{e9}\",\"type\":\"move\"}",
])
func onlyTheCanonicalMoveLayoutIsReadFieldByField(line: String) {
    #expect(Wire.moveRequest(fromLine: Array(line.utf8)) == nil)
    let moved = line.replacingOccurrences(
        of: #"{"game""#, with: #"{"clock":{"o":1,"x":2},"converted":[],"fen":"x","game""#
    )
    .replacingOccurrences(of: #""type":"move""#, with: #""ply":1,"type":"moved""#)
    #expect(Wire.movedReply(fromLine: Array(moved.utf8)) == nil)
}

@Test func theCanonicalMovedLayoutIsReadFieldByField() {
    let line =
        #"{"clock":{"o":1,"x":-2},"converted":["b2","c1"],"fen":"x5o/7/7/7/7/7/o5x x 0 1","game":7,"id":"q","legal":["f2","a7c5","0000"],"move":"f2","ply":3,"type":"moved"}"#
    #expect(
        Wire.movedReply(fromLine: Array(line.utf8))
            == Reply(
                .moved(
                    Moved(
                        game: 7, move: "f2", ply: 3, fen: "x5o/7/7/7/7/7/o5x x 0 1",
                        clock: Clocks(x: -2, o: 1), converted: Bitboard([Square("b2")!, Square("c1")!]),
                        legal: [
                            .clone(to: Square("f2")!), .jump(from: Square("a7")!, to: Square("c5")!), .pass,
                        ])),
                id: .string("q")))
}

/// A `moved` from a server older than `converted` is still read, with no piece turned.
@Test func aMovedWithoutConvertedIsReadAsNothingTurned() throws {
    let line =
        #"{"clock":{"o":10,"x":9},"fen":"x5o/7/7/7/7/5x1/o5x o 0 1","game":3,"move":"f2","ply":1,"type":"moved"}"#
    #expect(
        try Wire.reply(fromLine: Array(line.utf8))
            == Reply(
                .moved(
                    Moved(
                        game: 3, move: "f2", ply: 1, fen: "x5o/7/7/7/7/5x1/o5x o 0 1",
                        clock: Clocks(x: 9, o: 10),
                        converted: .empty, legal: nil))))
}

/// Lists the field-by-field reader leaves to the decoder, which refuses those that hold no
/// square or no move, and reads the rest as it would.
@Test(arguments: [
    (#""converted":["c1";"b2"],"fen""#, false),
    (#""converted":["c1" ],"fen""#, true),
    (#""converted":[ ],"fen""#, true),
    (#""converted":["h9"],"fen""#, false),
    (#""converted":[c1],"fen""#, false),
    (#""converted":"c1","fen""#, false),
    (#""converted":[],"fen":"x","game":1,"legal":["zz"],"move""#, false),
    (#""converted":[],"fen":"x","game":1,"legal":null,"move""#, true),
    (#""converted":[],"fen":"x","game":1,"legal":["f2" ,"a7c5"],"move""#, true),
])
func listsOutsideTheCanonicalLayoutGoToTheDecoder(middle: String, decodes: Bool) {
    let line =
        #"{"clock":{"o":1,"x":2},"# + middle
        + (middle.hasSuffix(#""move""#) ? "" : #":"x","game":1,"move""#) + #":"f2","ply":1,"type":"moved"}"#
    #expect(Wire.movedReply(fromLine: Array(line.utf8)) == nil, "\(line)")
    #expect(((try? Wire.reply(fromLine: Array(line.utf8))) != nil) == decodes, "\(line)")
}

@Test(arguments: [
    (
        #"{"type":"register","name":"ann","password":"pw"}"#,
        Request(.register(.init(name: "ann", password: "pw")))
    ),
    (#"{"type":"seek","id":"s"}"#, Request(.seek(TimeControl(initial: 300, increment: 3)), id: .string("s"))),
    (#"{"type":"seek","initial":60,"increment":0}"#, Request(.seek(TimeControl(initial: 60, increment: 0)))),
    (#"{"type":"seek","ai":19}"#, Request(.seekEngine(EngineSeek(level: 19)))),
    (
        #"{"type":"seek","ai":4,"color":"o","initial":60,"increment":1}"#,
        Request(.seekEngine(EngineSeek(level: 4, color: .o, control: TimeControl(initial: 60, increment: 1))))
    ),
    (#"{"type":"analyse","game":12}"#, Request(.analyse(game: 12))),
    (
        #"{"type":"move","game":4,"move":"a7c5","id":2.5}"#,
        Request(.move(game: 4, move: "a7c5"), id: .number(2.5))
    ),
    (#"{"type":"leaderboard"}"#, Request(.leaderboard(limit: 20, offset: 0))),
    (#"{"type":"ping","extra":[1,2]}"#, Request(.ping)),
    (#"{"type":"auth","token":"abc"}"#, Request(.auth(token: "abc"))),
])
func requestsAreRead(line: String, request: Request) throws {
    #expect(try Wire.request(fromLine: Array(line.utf8)) == request)
    // A client writes what the server reads.
    #expect(try Wire.request(fromLine: Array(Wire.line(request).utf8)) == request)
}

/// A move whose id is 65 bytes long: one too many.
private let moveWithALongID =
    #"{"game":1,"id":""# + String(repeating: "i", count: 65) + #"","move":"f2","type":"move"}"#
/// A ping whose id is 66 bytes of UTF-8 (33 characters of two bytes each).
private let pingWithAWideID = #"{"type":"ping","id":""# + String(repeating: "é", count: 33) + #""}"#

@Test(arguments: [
    ("", ErrorCode.badJSON),
    ("{", .badJSON),
    ("hello", .badJSON),
    ("[1,2]", .badRequest),
    ("null", .badRequest),
    (#""text""#, .badRequest),
    ("{}", .badRequest),
    (#"{"type":7}"#, .badRequest),
    (#"{"type":"dance"}"#, .unknownType),
    (#"{"type":"move","game":"one","move":"f2"}"#, .badRequest),
    (#"{"type":"move","game":1}"#, .badRequest),
    (#"{"type":"seek","initial":1e300}"#, .badRequest),
    (#"{"type":"seek","ai":2.5}"#, .badRequest),
    (#"{"type":"seek","ai":1,"color":"white"}"#, .badRequest),
    (#"{"type":"analyse"}"#, .badRequest),
    (#"{"type":"login","name":null,"password":"x"}"#, .badRequest),
    // A request id is a number or at most 64 bytes of printable text.
    (#"{"type":"move","game":1,"move":"f2","id":"\u0000"}"#, .badRequest),
    (#"{"type":"ping","id":"a\nb"}"#, .badRequest),
    (#"{"type":"ping","id":"\u007f"}"#, .badRequest),
    (#"{"type":"ping","id":"\u0085"}"#, .badRequest),
    (moveWithALongID, .badRequest),
    (pingWithAWideID, .badRequest),
])
func malformedRequestsGetTheirCode(line: String, code: ErrorCode) {
    #expect(throws: ProtocolError.self) { try Wire.request(fromLine: Array(line.utf8)) }
    do {
        _ = try Wire.request(fromLine: Array(line.utf8))
    } catch {
        #expect(error.code == code)
    }
}

@Test func invalidUTF8IsBadJSON() {
    do {
        _ = try Wire.request(fromLine: [0x7b, 0xff, 0xfe, 0x7d])
        Issue.record("accepted invalid UTF-8")
    } catch {
        #expect(error.code == .badJSON)
    }
}

/// The longest id, 64 bytes of printable text, and any other printable character, are taken.
@Test func anIDOfPrintableTextUpTo64BytesIsTaken() throws {
    let longest = String(repeating: "i", count: 64)
    let line = #"{"game":1,"id":"\#(longest)","move":"f2","type":"move"}"#
    #expect(try Wire.request(fromLine: Array(line.utf8)).id == .string(longest))
    let wide = String(repeating: "é", count: 32)
    #expect(try Wire.request(fromLine: Array(#"{"type":"ping","id":"\#(wide)"}"#.utf8)).id == .string(wide))
    #expect(
        try Wire.request(fromLine: Array(#"{"type":"ping","id":"a \"b\" 盤"}"#.utf8)).id
            == .string(#"a "b" 盤"#))
}

@Test func theIDOfARefusedLineIsStillFound() {
    // Not one a request may carry: the refusal echoes none.
    #expect(Wire.requestID(inLine: Array(#"{"type":"dance","id":"a\u0000"}"#.utf8)) == nil)
    #expect(Wire.requestID(inLine: Array(#"{"type":"dance","id":"x1"}"#.utf8)) == .string("x1"))
    #expect(Wire.requestID(inLine: Array(#"{"id":12}"#.utf8)) == .integer(12))
    #expect(Wire.requestID(inLine: Array("nonsense".utf8)) == nil)
}

/// Ids, and whether a line with one is written field by field.
private let plainIDs: [(RequestID?, Bool)] = [
    (nil, true), (.integer(0), true), (.integer(.min), true), (.integer(.max), true),
    (.string("a/1 b"), true),
    (.string(""), true), (.string(#"say "hi""#), false), (.string("caf\u{e9}"), false), (.number(2.5), false),
]

/// Names, and whether a line with one is written field by field.
private let plainNames: [(String, Bool)] = [
    ("ann", true), ("a/b c~{}", true), ("", true), (#"say "hi""#, false), ("caf\u{e9}", false),
    ("tab\t", false), (#"back\slash"#, false),
]

/// `start`, `end` and `welcome` are written field by field too: byte for byte the encoder's
/// line, with the encoder taking over only for what needs escaping or a non-integral id.
@Test(arguments: plainIDs, plainNames)
func gameLinesAreWrittenAsTheEncoderWouldWriteThem(id: (RequestID?, Bool), name: (String, Bool)) throws {
    let (id, plainID) = id
    let (name, plainName) = name
    for legal in [nil, [], [.pass], Position.start.legalMoves()] as [[Move]?] {
        for (color, rated) in [(Side.x, true), (.o, true), (.x, false), (.o, false)] {
            let start = GameStart(
                game: 1_234_567, color: color, opponent: Opponent(name: name, rating: -3),
                fen: "x5o/7/2-1-2/7/7/5x1/o5x o 12 51", control: TimeControl(initial: 300, increment: 0),
                legal: legal, rated: rated)
            let reply = Reply(.start(start), id: id)
            #expect((Wire.startLine(start, id: id) != nil) == (plainID && plainName))
            let line = Wire.line(reply)
            #expect(line == Wire.encode(reply))
            #expect(line.contains(#""rated":false,"type":"start"}"#) == !rated)
            #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
        }
    }
    for reason in Outcome.Reason.allCases {
        for winner in [nil, .x, .o] as [Side?] {
            let end = GameEnd(
                game: .min, outcome: Outcome(winner: winner, reason: reason),
                rating: RatingChange(before: 1500, after: -7))
            let reply = Reply(.end(end), id: id)
            #expect((Wire.endLine(end, id: id) != nil) == plainID)
            let line = Wire.line(reply)
            #expect(line == Wire.encode(reply))
            #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
        }
    }
    for accepts in [true, false] {
        let welcome = Welcome(
            name: name, token: "Ab-_09", rating: 1499, rd: 0, games: .max, acceptsChallenges: accepts)
        let reply = Reply(.welcome(welcome), id: id)
        #expect((Wire.welcomeLine(welcome, id: id) != nil) == (plainID && plainName))
        let line = Wire.line(reply)
        #expect(line == Wire.encode(reply))
        #expect(line.contains(#""challenges":false"#) == !accepts)
        #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
    }
}

/// `watching` is written field by field, its moves array given as written once for the ply:
/// byte for byte the encoder's line, the encoder taking over for what needs escaping.
@Test(arguments: plainIDs, plainNames)
func watchingLinesAreWrittenAsTheEncoderWouldWriteThem(id: (RequestID?, Bool), name: (String, Bool)) throws {
    let (id, plainID) = id
    let (name, plainName) = name
    let long = Array(repeating: Move.pass, count: 3) + Position.start.legalMoves()
    let starts: [([Move], String?, Bool)] = [
        ([], nil, true), ([.pass], "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", true), (long, nil, true),
        ([], nil, false), ([.pass], "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", false),
    ]
    for (moves, start, rated) in starts {
        let watched = WatchedGame(
            game: 42, x: GamePlayer(name: name, rating: 1612), o: GamePlayer(name: "o-side", rating: -5),
            fen: "x5o/7/2-1-2/7/7/5x1/o5x o 12 51", moves: moves, clock: Clocks(x: 299_871, o: 0),
            control: TimeControl(initial: 300, increment: 2), start: start, rated: rated)
        let reply = Reply(.watching(watched), id: id)
        let given = Wire.watchingLine(watched, id: id, movesArray: Wire.movesArray(moves))
        #expect((given != nil) == (plainID && plainName))
        let line = Wire.line(reply)
        #expect(line == Wire.encode(reply))
        if let given { #expect(given == line) }
        #expect(line.contains(#""rated":false"#) == !rated)
        #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
    }
}

/// A stored analysis (its fields as the protocol writes them) is served as it is, with the id
/// and the type put in: byte for byte the encoder's line; fields in another key order, or an
/// id that needs escaping, are decoded and encoded again, to the same line.
@Test(arguments: plainIDs)
func analysisLinesFromStoredFieldsAreTheEncodersLines(id: (RequestID?, Bool)) throws {
    let (id, plainID) = id
    let analyses = [
        GameAnalysis(game: 7, depth: 9, evals: [0], mistakes: []),
        GameAnalysis(
            game: .max, depth: 1, evals: [0, -10_000, 350, 12, -4],
            mistakes: [
                GameAnalysis.Mistake(ply: 1, played: try Move(notation: "a7c5"), best: .pass, loss: 10_000),
                GameAnalysis.Mistake(
                    ply: 4, played: try Move(notation: "f2"), best: try Move(notation: "b6"), loss: 300),
            ]),
    ]
    for analysis in analyses {
        let line = Wire.line(Reply(.analysis(analysis), id: id))
        let fields = Wire.encode(analysis)
        #expect((Wire.analysisLineAsWritten(fields: fields, id: id) != nil) == plainID)
        #expect(try Wire.analysisLine(fields: fields, id: id) == line)
        // As JSONEncoder wrote them before they were stored sorted (in an order of its own, run
        // to run), and with the keys of one object out of order at each level.
        let unsorted = String(decoding: try JSONEncoder().encode(analysis), as: UTF8.self)
        let accuracy = try #require(fields.firstRange(of: #""accuracy":{"o":"#))
        let xAccuracy = try #require(fields.firstRange(of: #"},"x":{"#))
        let outOfOrder = [
            unsorted,
            fields.replacingOccurrences(of: #""depth":"#, with: #""zepth":"#),
            fields[..<accuracy.upperBound].replacingOccurrences(of: #""o":"#, with: #""y":"#)
                + fields[accuracy.upperBound...],
            fields[..<xAccuracy.lowerBound] + #"},"a":{"# + fields[xAccuracy.upperBound...],
            fields.replacingOccurrences(of: #"{"accurate":"#, with: #"{"zccurate":"#),
        ]
        for text in outOfOrder where text != fields {
            #expect(Wire.analysisLineAsWritten(fields: text, id: id) == nil, "\(text)")
        }
        #expect(try Wire.analysisLine(fields: unsorted, id: id) == line)
    }
    #expect(throws: DecodingError.self) { try Wire.analysisLine(fields: #"{"game":1}"#, id: id) }
}
