import NanashiCore
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

@Test func aReplayStepsThroughTheRecordedPositions() throws {
    let pgn = """
        [White "ann"]
        [Black "bob"]
        [TimeControl "300+3"]
        [Reason "resign"]
        [Result "0-1"]

        1. b6 f6 2. a7c5 0-1
        """
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
