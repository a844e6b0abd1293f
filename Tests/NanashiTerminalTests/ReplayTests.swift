import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiTerminal
import Testing

@Test(arguments: [
    ("", ReplayStep.next), ("n", .next), (" N ", .next), ("b", .back), ("s", .start), ("e", .end),
    ("0", .ply(0)),
    ("42", .ply(42)), ("eval", .eval), ("?", .help), ("q", .quit),
])
func replayStepsAreRead(line: String, step: ReplayStep) {
    #expect(ReplayStep(parsing: line) == step)
}

@Test(arguments: ["-1", "x", "n n", "1.5", "evaluate"])
func otherLinesAreNotReplaySteps(line: String) {
    #expect(ReplayStep(parsing: line) == nil)
}

private let pgn = """
    [White "ann"]
    [Black "bob"]
    [TimeControl "300+3"]
    [Reason "resign"]
    [Result "0-1"]

    1. b6 f6 2. a7c5 0-1
    """

@Test func aReplayStepsThroughTheRecordedPositions() throws {
    var replay = Replay(try GameRecord(pgn: pgn))
    let afterTwo = try Position.start.replaying(["b6", "f6"]).position
    let afterThree = try Position.start.replaying(["b6", "f6", "a7c5"]).position
    let b6 = try Move(notation: "b6")
    #expect(replay.heading == "ann (x) v bob (o), 300+3, 0-1 (resign)")
    #expect(replay.labels == [.x: "ann", .o: "bob"])
    #expect(replay.plies == 3 && replay.ply == 0 && replay.position == .start && replay.lastMove == nil)
    // Nowhere to go back to from the start, nor past the end: nothing changes.
    #expect(!replay.take(.back) && replay.ply == 0)
    #expect(replay.take(.next) && replay.progress == "ply 1 of 3")
    #expect(replay.lastMove == PlayedMove(b6, in: .start))
    #expect(
        replay.take(.end) && replay.position == afterThree)
    #expect(!replay.take(.next) && !replay.take(.ply(4)) && replay.ply == 3)
    #expect(replay.take(.ply(2)) && replay.position == afterTwo)
    #expect(replay.take(.eval) && replay.take(.help) && replay.ply == 2)
    #expect(replay.take(.start) && replay.ply == 0)
    #expect(
        replay.evaluation(best: b6, score: .centipieces(-125), depth: 6)
            == "eval: best b6, score -1.25 for x (depth 6)")
    #expect(replay.evaluation(best: nil, score: .centipieces(0), depth: 0) == "eval: the game is over here")
}

// `nanashi replay` as a state machine: lines in, what to show out.

@Test func aReplayShowsTheHeadingThenABoardForEachStepTaken() throws {
    let replay = Replay(try GameRecord(pgn: pgn))
    var session = ReplaySession(replay, color: false)
    let renderer = BoardRenderer(color: false)
    let labels: [Side: String] = [.x: "ann", .o: "bob"]
    // The board as BoardRenderer draws it (tested against exact text there).
    let start = renderer.render(.start, lastMove: nil, labels: labels)
    #expect(
        session.start() == [
            .say("ann (x) v bob (o), 300+3, 0-1 (resign)"), .write(start), .say(" ply 0 of 3"),
        ])
    let b6 = try Move(notation: "b6")
    let afterB6 = renderer.render(
        try Position.start.play(b6), lastMove: PlayedMove(b6, in: .start), labels: labels)
    #expect(session.typed("n") == [.write(afterB6), .say(" ply 1 of 3")])
    #expect(session.typed("b") == [.write(start), .say(" ply 0 of 3")])
    // Nowhere to go, or already there: a word, or nothing.
    #expect(session.typed("b") == [.say("no such position: the game has plies 0 to 3")])
    #expect(session.typed("4") == [.say("no such position: the game has plies 0 to 3")])
    #expect(session.typed("0") == [])
    #expect(session.typed("zz") == [.say("'zz'? n next, b back, s start, e end, a ply number, eval, q quit")])
    #expect(session.typed("?") == [.say("n next, b back, s start, e end, a ply number, eval, q quit")])
    #expect(session.replay.ply == 0)
}

@Test func evalAsksTheRunnerToSearchThePositionShown() throws {
    var session = ReplaySession(Replay(try GameRecord(pgn: pgn)), color: false)
    #expect(session.typed("eval") == [.evaluate(.start)])
    _ = session.typed("e")
    let end = try Position.start.replaying(["b6", "f6", "a7c5"]).position
    #expect(session.typed("eval") == [.evaluate(end)])
    // o is to move at the end: the score is o's.
    let e5 = try Move(notation: "e5")
    #expect(
        session.evaluated(best: e5, score: .centipieces(-125), depth: 6)
            == "eval: best e5, score -1.25 for o (depth 6)")
    #expect(session.evaluated(best: nil, score: .centipieces(0), depth: 0) == "eval: the game is over here")
}

@Test(arguments: ["q", "quit", nil] as [String?])
func quittingOrTheEndOfInputLeaves(line: String?) throws {
    var session = ReplaySession(Replay(try GameRecord(pgn: pgn)), color: false)
    #expect(session.typed(line) == [.quit])
}

@Test func aStoredAnalysisIsShownUnderEachPosition() throws {
    let analysis = GameAnalysis(
        game: 1, depth: 6, evals: [12, 10, -340, 10_000],
        mistakes: [GameAnalysis.Mistake(ply: 2, played: "f6", best: "g6", loss: 350)])
    var session = ReplaySession(Replay(try GameRecord(pgn: pgn)), color: false, analysis: analysis)
    let start = session.start()
    #expect(
        start.prefix(2) == [
            .say("ann (x) v bob (o), 300+3, 0-1 (resign)"),
            .say("analysis at depth 6: mistakes at plies 2 (type a number to go there)"),
        ])
    // x: 12 to 10 (0.02 lost), -340 to 10000 (none); o: 10 to -340, a gain for o.
    #expect(
        start[2]
            == .say(
                "accuracy (moves within 0.50 pieces of the engine's): x 100% (2 of 2, average loss 0.01), "
                    + "o 100% (1 of 1, average loss 0.00)"))
    #expect(start.last == .say(" eval +0.12 (x is ahead)"))
    #expect(
        session.typed("2").suffix(2) == [
            .say(" eval -3.40 (o is ahead)"),
            .say(" f6 was a mistake (lost 3.50 pieces): the engine preferred g6"),
        ])
    #expect(session.typed("e").last == .say(" eval x wins by force"))
}

@Test func anAnalysisWithTheLargestNumbersIsShownWithoutOverflowing() throws {
    // A hostile or broken server may send any integer: the replay shows it rather than trapping.
    let analysis = GameAnalysis(
        game: 1, depth: 6, evals: [Int.min, Int.max, -9_999, 10_000],
        mistakes: [GameAnalysis.Mistake(ply: 2, played: "f6", best: "g6", loss: Int.min)])
    var session = ReplaySession(Replay(try GameRecord(pgn: pgn)), color: false, analysis: analysis)
    // Each evaluation is taken as at most a win, so no subtraction overflows.
    #expect(
        session.start()[2]
            == .say(
                "accuracy (moves within 0.50 pieces of the engine's): x 100% (2 of 2, average loss 0.00), "
                    + "o 100% (1 of 1, average loss 0.00)"))
    #expect(session.start().last == .say(" eval o wins by force"))
    #expect(
        session.typed("2").suffix(2) == [
            .say(" eval -99.99 (o is ahead)"),
            .say(" f6 was a mistake (lost 92233720368547758.08 pieces): the engine preferred g6"),
        ])
}

/// `nanashi replay FILE --analyse`: the analysis computed here, in a game o starts. o's f7
/// leaves the jump b1d3, which takes all eight of x's pieces: a mistake of o's, with the jump
/// as the better move.
@Test func aReplayIsAnalysedHere() throws {
    let start = try Position(fen: "6o/7/7/2xxx2/2x1x2/2xxx2/1o5 o 0 1")
    let replay = Replay(try GameRecord(start: start, moves: [Move(notation: "f7"), Move(notation: "d3")]))
    let analysis = replay.analysis(depth: 2, engine: Engine())
    #expect(analysis.game == 0 && analysis.depth == 2 && analysis.firstMover == .o)
    #expect(analysis.evals.count == 3 && analysis.evals[0] < -500, "\(analysis.evals)")
    #expect(analysis.mistakes.map(\.ply) == [1], "\(analysis.mistakes)")
    #expect(analysis.mistakes.first?.best == (try Move(notation: "b1d3")))
    #expect(analysis.mistakes.first.map { $0.loss >= GameAnalysis.mistakeThreshold } == true)
    #expect(analysis.accuracy(of: .o).moves == 1 && analysis.accuracy(of: .o).accurate == 0)
    // The same searches on an engine that searched before: each stands alone; the progress
    // counts every position.
    let used = Engine()
    _ = used.search(.start, limits: .depth(5))
    var told: [String] = []
    #expect(replay.analysis(depth: 2, engine: used) { told.append("\($0)/\($1)") } == analysis)
    #expect(told == ["1/3", "2/3", "3/3"])
}

/// A server's analysis of a game from a FEN with o to move: the session takes the first mover
/// from the game's start (the wire does not carry it), so each side's accuracy and each
/// mistake's cost are the mover's own; a win given up or a loss walked into is said so, not as
/// a hundred pieces.
@Test func anAnalysisOfAGameWhereOMovesFirstIsRead() throws {
    let start = try Position(fen: "x5o/7/7/7/7/7/o5x o 0 1")
    let record = try GameRecord(start: start, moves: [Move(notation: "b1"), Move(notation: "f2")])
    // o's b1: 0 → 10,000 (o walked into a loss); x's f2: 10,000 → -58 (x gave the win up).
    let analysis = GameAnalysis(
        game: 4, depth: 6, evals: [0, 10_000, -58],
        mistakes: [
            GameAnalysis.Mistake(ply: 1, played: "b1", best: "b2", loss: 10_000),
            GameAnalysis.Mistake(ply: 2, played: "f2", best: "f1", loss: 10_058),
        ])
    var session = ReplaySession(Replay(record), color: false, analysis: analysis)
    #expect(
        session.start()[2]
            == .say(
                "accuracy (moves within 0.50 pieces of the engine's): x 0% (0 of 1, average loss 10.00), "
                    + "o 0% (0 of 1, average loss 10.00)"))
    #expect(
        session.typed("1").suffix(2) == [
            .say(" eval x wins by force"),
            .say(" b1 was a mistake (walked into a loss by force): the engine preferred b2"),
        ])
    #expect(
        session.typed("2").suffix(2) == [
            .say(" eval -0.58 (o is ahead)"),
            .say(" f2 was a mistake (gave up a win by force): the engine preferred f1"),
        ])
}
