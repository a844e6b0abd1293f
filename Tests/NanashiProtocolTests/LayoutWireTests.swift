import NanashiCore
import Testing

@testable import NanashiProtocol

private let cross = Layout.named("cross")!
private let control = TimeControl(initial: 60, increment: 0)

@Test(arguments: [
    (#"{"type":"layouts"}"#, Request(.layouts)),
    (
        #"{"type":"seek","layout":"cross"}"#,
        Request(.seek(TimeControl(initial: 300, increment: 3), layout: cross))
    ),
    (#"{"type":"seek","layout":"standard"}"#, Request(.seek(TimeControl(initial: 300, increment: 3)))),
    (
        #"{"type":"seek","ai":3,"initial":60,"increment":0,"layout":"cross"}"#,
        Request(.seekEngine(EngineSeek(level: 3, control: control, layout: cross)))
    ),
    (
        #"{"type":"seek","ai":3,"color":"o","initial":60,"increment":0,"fen":"x5o/7/7/3o3/7/7/o5x x"}"#,
        Request(
            .seekEngine(
                EngineSeek(
                    level: 3, color: .o, control: control,
                    custom: try! Position(fen: "x5o/7/7/3o3/7/7/o5x x 0 1"))))
    ),
    (
        #"{"type":"challenge","to":"bob","initial":60,"increment":0,"layout":"cross"}"#,
        Request(.challenge(to: "bob", terms: ChallengeTerms(control: control, layout: cross)))
    ),
    (
        #"{"type":"challenge","initial":60,"increment":0,"fen":"x5o/7/7/7/7/7/o5x o"}"#,
        Request(
            .challenge(
                to: nil,
                terms: ChallengeTerms(
                    control: control, rated: false, custom: try! Position(fen: "x5o/7/7/7/7/7/o5x o 0 1"))))
    ),
])
func layoutRequestsAreRead(line: String, request: Request) throws {
    #expect(try Wire.request(fromLine: Array(line.utf8)) == request)
    #expect(try Wire.request(fromLine: Array(Wire.line(request).utf8)) == request)
}

@Test func aCustomStartIsAlwaysCasual() {
    let terms = ChallengeTerms(control: control, rated: true, custom: cross.position)
    #expect(!terms.rated && terms.start == cross.position)
    #expect(ChallengeTerms(control: control, layout: cross).rated)
}

@Test func theStartsAreWrittenExactly() {
    #expect(
        Wire.line(Request(.seek(control, layout: cross)))
            == #"{"increment":0,"initial":60,"layout":"cross","type":"seek"}"#)
    #expect(Wire.line(Request(.seek(control))) == #"{"increment":0,"initial":60,"type":"seek"}"#)
    #expect(
        Wire.line(Request(.seekEngine(EngineSeek(level: 2, control: control, layout: cross))))
            == #"{"ai":2,"increment":0,"initial":60,"layout":"cross","type":"seek"}"#)
    #expect(
        Wire.line(Request(.seekEngine(EngineSeek(level: 2, control: control, custom: cross.position))))
            == #"{"ai":2,"fen":"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1","increment":0,"initial":60,"type":"seek"}"#)
    #expect(EngineSeek(level: 2, layout: cross).start == cross.position)
    #expect(EngineSeek(level: 2, layout: cross, custom: .start).start == .start)
    #expect(
        Wire.line(
            Request(.challenge(to: nil, terms: ChallengeTerms(control: control, custom: cross.position))))
            == #"{"color":"random","fen":"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1","increment":0,"initial":60,"rated":false,"type":"challenge"}"#
    )
    #expect(
        Wire.line(Reply(.layouts([LayoutEntry(cross)])))
            == #"{"layouts":[{"fen":"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1","name":"cross"}],"type":"layouts"}"#)
    let state = GameState(
        game: 3, color: .x, opponent: Opponent(name: "bob", rating: 1500), fen: cross.fen, moves: [],
        clock: Clocks(x: 1000, o: 1000), control: control, start: cross.fen)
    let line = Wire.line(Reply(.game(state)))
    #expect(line.contains(#""start":"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1""#), "\(line)")
    #expect((try? Wire.reply(fromLine: Array(line.utf8)).message) == .game(state))
}

@Test(arguments: [
    (
        #"{"type":"seek","layout":"nowhere"}"#,
        "no layout is named 'nowhere'; {\"type\":\"layouts\"} lists them"
    ),
    (
        #"{"type":"seek","ai":3,"layout":"cross","fen":"x5o/7/7/7/7/7/o5x x 0 1"}"#,
        "a seek names a layout or a fen, not both"
    ),
    (
        #"{"type":"seek","ai":3,"layout":"Cross"}"#,
        "no layout is named 'Cross'; {\"type\":\"layouts\"} lists them"
    ),
    (
        #"{"type":"seek","ai":3,"fen":"\#(String(repeating: "x", count: 200))"}"#,
        "a start FEN is at most 100 bytes, not 200"
    ),
    (
        #"{"type":"seek","ai":3,"fen":"x6/7/7/7/7/7/7 o 0 1"}"#,
        "the game is over at this FEN: x wins (o has no pieces left)"
    ),
    (
        #"{"type":"seek","fen":"x5o/7/7/7/7/7/o5x x 0 1"}"#,
        "a seek for a person starts from a layout; a fen is for challenges and ai"
    ),
    (
        #"{"type":"challenge","initial":60,"increment":0,"fen":"\#(String(repeating: "7", count: 10_000))"}"#,
        "a start FEN is at most 100 bytes, not 10000"
    ),
    (
        #"{"type":"challenge","initial":60,"increment":0,"fen":"x5o/7/7/7/7/7/o5x x 100 1"}"#,
        "the game is over at this FEN: draw (fifty-move rule: 100 plies without a clone)"
    ),
])
func badStartsAreBadRequests(line: String, message: String) {
    #expect(throws: ProtocolError(.badRequest, message)) { try Wire.request(fromLine: Array(line.utf8)) }
}
