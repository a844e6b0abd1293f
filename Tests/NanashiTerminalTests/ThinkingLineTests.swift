import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct ThinkingLineTests {
    @Test(arguments: [
        (
            Side.o, 8, "b1", ThinkingLine.Score.centipieces(100),
            "o is thinking: depth 8, best so far b1, score +1.00 for o"
        ),
        (.x, 3, "a7c5", .centipieces(-205), "x is thinking: depth 3, best so far a7c5, score -2.05 for x"),
        (.x, 1, "f2", .centipieces(0), "x is thinking: depth 1, best so far f2, score +0.00 for x"),
        (.o, 5, "g6", .win(plies: 3), "o is thinking: depth 5, best so far g6, o wins in 3 plies"),
        (.o, 2, "0000", .loss(plies: 1), "o is thinking: depth 2, best so far 0000, x wins in 1 ply"),
    ])
    func progressLine(side: Side, depth: Int, best: String, score: ThinkingLine.Score, line: String) throws {
        #expect(
            ThinkingLine.progress(by: side, depth: depth, best: try Move(notation: best), score: score)
                == line)
    }

    @Test func beforeTheFirstDepth() {
        #expect(ThinkingLine.started(by: .x) == "x is thinking...")
        #expect(
            ThinkingLine.progress(by: .x, depth: 0, best: nil, score: .centipieces(0))
                == "x is thinking: depth 0, best so far -, score +0.00 for x")
    }
}
