import Foundation
import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiProtocol

/// A game's time control is a `TimeControl` in every message, written as the message's own
/// `initial` and `increment` fields, whole seconds; played moves are `Move`s, written in notation.
@Test(arguments: [
    (
        ServerMessage.live([
            LiveGame(
                game: 4, x: GamePlayer(name: "ann", rating: 1612), o: GamePlayer(name: "bob", rating: 1480),
                control: TimeControl(initialMilliseconds: 90_500, incrementMilliseconds: 2_999), ply: 9)
        ]),
        #"{"games":[{"game":4,"increment":2,"initial":90,"o":{"name":"bob","rating":1480},"ply":9,"x":{"name":"ann","rating":1612}}],"type":"live"}"#
    ),
    (
        .watching(
            WatchedGame(
                game: 4, x: GamePlayer(name: "ann", rating: 1612), o: GamePlayer(name: "bob", rating: 1480),
                fen: "x5o/7/7/7/7/7/o5x x 0 1", moves: ["f2", "a7c5", "0000"], clock: Clocks(x: 5, o: 6),
                control: TimeControl(initial: 60, increment: 0))),
        #"{"clock":{"o":6,"x":5},"fen":"x5o/7/7/7/7/7/o5x x 0 1","game":4,"increment":0,"initial":60,"moves":["f2","a7c5","0000"],"o":{"name":"bob","rating":1480},"type":"game","x":{"name":"ann","rating":1612}}"#
    ),
    (
        .analysis(
            GameAnalysis(
                game: 3, depth: 6, evals: [10, -320],
                mistakes: [GameAnalysis.Mistake(ply: 1, played: "a7c5", best: "0000", loss: 330)])),
        #"{"accuracy":{"o":{"accurate":0,"average_loss":0,"moves":0,"percent":0},"x":{"accurate":0,"average_loss":330,"moves":1,"percent":0}},"depth":6,"evals":[10,-320],"game":3,"mistakes":[{"best":"0000","loss":330,"played":"a7c5","ply":1}],"type":"analysis","unit":"centipieces"}"#
    ),
])
func wholeSecondsAndNotationAreWritten(message: ServerMessage, line: String) throws {
    #expect(Wire.line(Reply(message)) == line)
}

/// Read back, a time control's fields are both required (unlike a `seek`'s), and a played move
/// must be a move.
@Test(arguments: [
    (
        #"{"color":"x","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":5,"initial":60,"opponent":{"name":"bob","rating":1500},"type":"start"}"#,
        ProtocolError(.badRequest, "missing field 'increment'")
    ),
    (
        #"{"games":[{"game":4,"increment":3,"o":{"name":"bob","rating":1480},"ply":9,"x":{"name":"ann","rating":1612}}],"type":"live"}"#,
        ProtocolError(.badRequest, "missing field 'initial'")
    ),
    (
        #"{"clock":{"o":9,"x":10},"converted":[],"fen":"x5o/7/7/7/7/5x1/o5x o 0 1","game":3,"move":"f9","ply":1,"type":"moved"}"#,
        ProtocolError(.badRequest, "field 'move' is out of range")
    ),
    (
        #"{"clock":{"o":2,"x":1},"color":"o","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":5,"increment":1,"initial":60,"moves":["b2","pass"],"opponent":{"name":"ann","rating":1500},"type":"game"}"#,
        ProtocolError(.badRequest, "field 'moves.Index 1' is out of range")
    ),
])
func aMissingFieldOrAMoveThatIsNotOneIsRefused(line: String, error: ProtocolError) {
    #expect(throws: error) { try Wire.reply(fromLine: Array(line.utf8)) }
}

/// `rated` is written only as `false`; left out, or `true` as a client might write it, a game is
/// rated.
@Test func aGameIsRatedUnlessItSaysOtherwise() throws {
    let start =
        #"{"color":"x","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":5,"increment":0,"initial":60,"opponent":{"name":"bob","rating":1500},"#
    for (field, rated) in [("", true), (#""rated":true,"#, true), (#""rated":false,"#, false)] {
        let line = start + field + #""type":"start"}"#
        guard case .start(let read) = try Wire.reply(fromLine: Array(line.utf8)).message else {
            Issue.record("not a start: \(line)")
            continue
        }
        #expect(read.rated == rated)
        #expect(
            Wire.line(Reply(.start(read))) == start + (rated ? "" : #""rated":false,"#) + #""type":"start"}"#)
    }
    let watched =
        #"{"clock":{"o":6,"x":5},"fen":"x5o/7/7/7/7/7/o5x x 0 1","game":4,"increment":0,"initial":60,"moves":[],"o":{"name":"bob","rating":1480},"rated":false,"type":"game","x":{"name":"ann","rating":1612}}"#
    guard case .watching(let game) = try Wire.reply(fromLine: Array(watched.utf8)).message else {
        Issue.record("not a watcher's game: \(watched)")
        return
    }
    #expect(!game.rated && Wire.line(Reply(.watching(game))) == watched)
}

/// What is written is read back as it was: the time control in whole seconds, the moves as moves.
@Test func gameMessagesReadBackAsWritten() throws {
    let control = TimeControl(initial: 180, increment: 2)
    let messages: [ServerMessage] = [
        .start(
            GameStart(
                game: 5, color: .o, opponent: Opponent(name: "ann", rating: 1500), fen: Position.start.fen,
                control: control, legal: ["f2", "a7c5"])),
        .game(
            GameState(
                game: 5, color: .x, opponent: Opponent(name: "bob", rating: 1480), fen: Position.start.fen,
                moves: ["f2", "0000"], clock: Clocks(x: 1, o: 2), control: control)),
        .moved(Moved(game: 5, move: "a7c5", ply: 2, fen: Position.start.fen, clock: Clocks(x: 1, o: 2))),
    ]
    for message in messages {
        let reply = Reply(message, id: .integer(3))
        #expect(try Wire.reply(fromLine: Array(Wire.line(reply).utf8)) == reply)
    }
}

/// The engine's players are named `AI level N`, a name no person can take; any other name is a
/// person's, however close.
@Test func theEnginesPlayersAreKnownByTheirNames() {
    #expect(Opponent.engineName(level: 3) == "AI level 3")
    #expect(Opponent(name: "AI level 3", rating: 1500).engineLevel == 3)
    #expect(Opponent(name: "AI level 24", rating: 1500).engineLevel == 24)
    for name in [
        "ann", "AI level", "AI level 0", "AI level 03", "AI level -1", "AI level 3 ", "ai level 3",
        "AI level x",
    ] {
        #expect(Opponent(name: name, rating: 1500).engineLevel == nil, "\(name)")
    }
}
