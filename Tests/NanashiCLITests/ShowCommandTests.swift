import NanashiTestSupport
import Testing

@Suite(.blocking) struct ShowCommandTests {
    @Test func showsTheBoardFENAndLegalMovesAfterTheMoves() throws {
        let result = try NanashiProcess.run(["show", "f2", "a1c2"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                7 x . . . . . o
                6 . . . . . . .
                5 . . . . . . .
                4 . . . . . . .
                3 . . . . . . .
                2 . . o . . x .
                1 . . . . . . x
                  a b c d e f g
                fen x5o/7/7/7/7/2o2x1/6x x 1 2
                moves e1 f1 e2 g2 e3 f3 g3 a6 b6 b7 g1e1 g1e2 g1e3 g1f3 g1g3 f2d1 f2d2 f2d3 f2d4 f2e4 f2f4 f2g4 a7a5 a7b5 a7c5 a7c6 a7c7

                """)
    }

    @Test func showsTheOutcomeWhenTheGameIsOver() throws {
        let result = try NanashiProcess.run(["show", "--fen", "7/7/7/7/7/1o5/x6 x 0 1", "b1"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("fen 7/7/7/7/7/1x5/xx5 o 0 1\nmoves\noutcome x pieces\n"))
    }

    /// A FEN whose a7 is a blocker starts with '-', and is read as the value of --fen.
    @Test func aFENStartingWithABlockerIsTheValueOfFEN() throws {
        let result = try NanashiProcess.run(["show", "--fen", "-5o/7/7/7/7/7/o5x x 0 1", "f1"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("7 - . . . . . o\n"))
        #expect(result.stdout.contains("\nfen -5o/7/7/7/7/7/o4xx o 0 1\n"))
    }

    @Test func aForcedPassIsTheOnlyMove() throws {
        let result = try NanashiProcess.run(["show", "--fen", "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1"])
        #expect(result.stdout.hasSuffix("fen 7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1\nmoves 0000\n"))
    }

    @Test(arguments: [
        (["show", "h9"], "nanashi: bad move: 'h9' is not a square: expected a1 to g7\n"),
        (
            ["show", "f2", "f2"],
            "nanashi: illegal move f2: the destination is occupied in x5o/7/7/7/7/5x1/o5x o 0 1\n"
        ),
        (
            ["show", "0000"],
            "nanashi: illegal move 0000: you can only pass when you have no move in x5o/7/7/7/7/7/o5x x 0 1\n"
        ),
        (
            ["show", "--fen", "x5o/7/7/7/7/7/o5x z"],
            "nanashi: bad FEN 'x5o/7/7/7/7/7/o5x z': the side to move must be x or o, not 'z'\n"
        ),
    ])
    func badInputIsOneLineAndExitCodeTwo(arguments: [String], message: String) throws {
        let result = try NanashiProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message)
    }
}
