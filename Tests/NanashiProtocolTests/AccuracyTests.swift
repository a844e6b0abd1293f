import NanashiCore
import NanashiProtocol
import Testing

// Each side's accuracy, read off hand-made analyses.

@Test func eachSideCountsItsOwnMovesAndTheirLosses() {
    // x: 0 → -30 (30 lost, accurate), 120 → 20 (100 lost), 20 → 600 (a gain: none lost).
    // o: -30 → 120 (150 lost), 20 → 20 (none).
    let analysis = GameAnalysis(game: 1, depth: 6, evals: [0, -30, 120, 20, 20, 600], mistakes: [])
    let x = analysis.accuracy(of: .x)
    #expect(x == Accuracy(moves: 3, accurate: 2, totalLoss: 130))
    #expect(abs(x.percent - 200.0 / 3) < 1e-9 && abs(x.averageLoss - 130.0 / 3) < 1e-9)
    let o = analysis.accuracy(of: .o)
    #expect(o == Accuracy(moves: 2, accurate: 1, totalLoss: 150))
    #expect(o.percent == 50 && o.averageLoss == 75)
}

@Test func theThresholdIsInclusiveAndALossIsCapped() {
    #expect(Accuracy.loss(of: .x, before: 100, after: 50) == Accuracy.accurateLoss)
    #expect(Accuracy.loss(of: .o, before: 50, after: 100) == Accuracy.accurateLoss)
    // Throwing a won game away costs one cap, not 20,000.
    #expect(Accuracy.loss(of: .x, before: GameAnalysis.won, after: -GameAnalysis.won) == Accuracy.lossCap)
    let analysis = GameAnalysis(game: 1, depth: 6, evals: [100, 50, 51, -10_000, 10_000], mistakes: [])
    #expect(analysis.accuracy(of: .x) == Accuracy(moves: 2, accurate: 1, totalLoss: 1_050))
    #expect(analysis.accuracy(of: .o) == Accuracy(moves: 2, accurate: 1, totalLoss: 1_001))
}

@Test func noMovesIsNoAccuracyAndGamesAddUp() {
    let empty = GameAnalysis(game: 1, depth: 6, evals: [0], mistakes: [])
    #expect(empty.accuracy(of: .x) == Accuracy() && empty.accuracy(of: .x).percent == 0)
    #expect(Accuracy().averageLoss == 0)
    let sum =
        Accuracy(moves: 3, accurate: 2, totalLoss: 130) + Accuracy(moves: 1, accurate: 0, totalLoss: 400)
    #expect(sum == Accuracy(moves: 4, accurate: 2, totalLoss: 530) && sum.percent == 50)
}

@Test func anyIntegerAServerSendsIsTakenWithinAWin() {
    let analysis = GameAnalysis(game: 1, depth: 6, evals: [Int.max, Int.min, Int.min, Int.max], mistakes: [])
    #expect(analysis.accuracy(of: .x) == Accuracy(moves: 2, accurate: 1, totalLoss: Accuracy.lossCap))
    #expect(analysis.accuracy(of: .o) == Accuracy(moves: 1, accurate: 1, totalLoss: 0))
}

@Test func theAccuracyIsSentButNotReadBack() throws {
    let analysis = GameAnalysis(game: 2, depth: 6, evals: [0, -30, 120], mistakes: [])
    let line = Wire.line(Reply(.analysis(analysis)))
    #expect(
        line.hasPrefix(
            #"{"accuracy":{"o":{"accurate":0,"average_loss":150,"moves":1,"percent":0},"x":{"accurate":1,"average_loss":30,"moves":1,"percent":100}},"#
        ))
    #expect(try Wire.reply(fromLine: Array(line.utf8)) == Reply(.analysis(analysis)))
    // A line without it (an older server's) reads the same.
    let older =
        #"{"depth":6,"evals":[0,-30,120],"game":2,"mistakes":[],"type":"analysis","unit":"centipieces"}"#
    #expect(try Wire.reply(fromLine: Array(older.utf8)) == Reply(.analysis(analysis)))
}

/// In a game from a FEN with o to move, the first change of evaluation is o's move: the
/// analysis read off the searches knows it from the start, and sends each side's own accuracy.
@Test func aGameWhereOMovesFirstCountsOsMoveFirst() throws {
    let start = try Position(fen: "x5o/7/7/7/7/7/o5x o 0 1")
    let moves = [try Move(notation: "b1"), try Move(notation: "f2")]
    let positions = try [start, start.play(moves[0]), start.play(moves[0]).play(moves[1])]
    // o's b1: 0 → 200 (o lost 200); x's f2: 200 → 190 (x lost 10).
    let analysis = GameAnalysis(
        game: 3, depth: 2, positions: positions, moves: moves,
        findings: [
            (0, moves[0]), (200, moves[1]),
            (-190, moves[1]),
        ])
    #expect(analysis.firstMover == .o && analysis.evals == [0, 200, 190])
    #expect(analysis.mover(of: 1) == .o && analysis.mover(of: 2) == .x)
    #expect(analysis.accuracy(of: .o) == Accuracy(moves: 1, accurate: 0, totalLoss: 200))
    #expect(analysis.accuracy(of: .x) == Accuracy(moves: 1, accurate: 1, totalLoss: 10))
    #expect(
        Wire.line(Reply(.analysis(analysis))).hasPrefix(
            #"{"accuracy":{"o":{"accurate":0,"average_loss":200,"moves":1,"percent":0},"x":{"accurate":1,"average_loss":10,"moves":1,"percent":100}},"#
        ))
}
