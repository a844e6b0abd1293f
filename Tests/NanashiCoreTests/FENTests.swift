import Testing

@testable import NanashiCore

struct FENTests {
    @Test(arguments: [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 17 42",
        "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 0 1",
        "-------/-------/-------/-------/-------/-------/------- x 0 1",
        "7/7/7/7/7/7/7 x 99 1000",
        "xoxoxox/oxoxoxo/xoxoxox/oxoxoxo/xoxoxox/oxoxoxo/xoxoxox o 3 7",
    ])
    func roundTrips(fen: String) throws {
        #expect(try Position(fen: fen).fen == fen)
    }

    @Test(arguments: [
        ("startpos", "x5o/7/7/7/7/7/o5x x 0 1"),
        ("x5o/7/7/7/7/7/o5x x", "x5o/7/7/7/7/7/o5x x 0 1"),
        ("x5o/7/7/7/7/7/o5x o 5", "x5o/7/7/7/7/7/o5x o 5 1"),
        ("  x5o/7/7/7/7/7/o5x   x 0 1 ", "x5o/7/7/7/7/7/o5x x 0 1"),
        ("X5O/7/7/7/7/7/O5X X 0 1", "x5o/7/7/7/7/7/o5x x 0 1"),
        ("x41o/7/7/7/7/7/o5x x 0 1", "x5o/7/7/7/7/7/o5x x 0 1"),
        ("x5o/7/7/7/7/7/o5x x 100 0", "x5o/7/7/7/7/7/o5x x 100 0"),
    ])
    func readsOtherFormsAndWritesCanonical(input: String, canonical: String) throws {
        #expect(try Position(fen: input).fen == canonical)
    }

    @Test(arguments: [
        ("", FENError.empty),
        ("   ", .empty),
        ("x5o/7/7/7/7/7/o5x", .wrongFieldCount(1)),
        ("x5o/7/7/7/7/7/o5x x 0 1 extra", .wrongFieldCount(5)),
        ("x5o/7/7/7/7/o5x x 0 1", .wrongRankCount(6)),
        ("x5o/7/7/7/7/7/7/o5x x 0 1", .wrongRankCount(8)),
        ("x5o/7/7/7/7/7/o5x/ x 0 1", .wrongRankCount(8)),
        ("x6o/7/7/7/7/7/o5x x 0 1", .wrongRankLength(rank: 7, squares: 8)),
        ("x4o/7/7/7/7/7/o5x x 0 1", .wrongRankLength(rank: 7, squares: 6)),
        ("x5o/7/7//7/7/o5x x 0 1", .wrongRankLength(rank: 4, squares: 0)),
        ("x5o/7/7/8/7/7/o5x x 0 1", .badCharacter("8", rank: 4)),
        ("x5o/7/7/0007/7/7/o5x x 0 1", .badCharacter("0", rank: 4)),
        ("x5o/7/7/3p3/7/7/o5x x 0 1", .badCharacter("p", rank: 4)),
        ("x5o/7/7/7/7/7/o5x b 0 1", .badSide("b")),
        ("x5o/7/7/7/7/7/o5x xo 0 1", .badSide("xo")),
        ("x5o/7/7/7/7/7/o5x x -1 1", .badHalfmoveClock("-1")),
        ("x5o/7/7/7/7/7/o5x x a 1", .badHalfmoveClock("a")),
        ("x5o/7/7/7/7/7/o5x x 99999999999999999999 1", .badHalfmoveClock("99999999999999999999")),
        ("x5o/7/7/7/7/7/o5x x 0 -3", .badFullmoveNumber("-3")),
        ("x5o/7/7/7/7/7/o5x x 0 1.5", .badFullmoveNumber("1.5")),
    ])
    func refusesMalformed(fen: String, error: FENError) {
        #expect(throws: error) { try Position(fen: fen) }
    }

    @Test func errorsSayWhatIsWrong() {
        #expect(
            FENError.wrongRankLength(rank: 7, squares: 8).description
                == "rank 7 describes 8 squares instead of 7")
        #expect(FENError.badSide("b").description == "the side to move must be x or o, not 'b'")
    }

    @Test func readsPiecesOntoTheRightSquares() throws {
        let position = try position("x5o/7/2-1-2/7/7/7/o4xx o 3 9")
        #expect(position[Square("a7")!] == .x)
        #expect(position[Square("g7")!] == .o)
        #expect(position[Square("a1")!] == .o)
        #expect(position.pieces(of: .x) == Bitboard([Square("a7")!, Square("f1")!, Square("g1")!]))
        #expect(position.blockers == Bitboard([Square("c5")!, Square("e5")!]))
        #expect(position.sideToMove == .o)
        #expect(position.halfmoveClock == 3)
        #expect(position.fullmoveNumber == 9)
    }

    @Test func diagramDrawsTheBoardRankSevenFirst() throws {
        let position = try position("x5o/7/2-1-2/7/7/7/o5x x 0 1")
        #expect(
            position.diagram == """
                7 x . . . . . o
                6 . . . . . . .
                5 . . - . - . .
                4 . . . . . . .
                3 . . . . . . .
                2 . . . . . . .
                1 o . . . . . x
                  a b c d e f g

                """)
    }

    @Test func shownIsTheBoardTheFENTheMovesAndOnceOverTheOutcome() throws {
        let start = try position("x5o/7/7/7/7/7/o5x o 0 1")
        #expect(
            start.shown == start.diagram + "fen x5o/7/7/7/7/7/o5x o 0 1\n"
                + "moves b1 a2 b2 f6 g6 f7 a1c1 a1c2 a1a3 a1b3 a1c3 g7e5 g7f5 g7g5 g7e6 g7e7\n")
        let over = try position("xxxxxxx/7/7/7/7/7/7 o 0 1")
        #expect(
            over.shown == over.diagram + "fen xxxxxxx/7/7/7/7/7/7 o 0 1\nmoves\noutcome x pieces\n")
    }

    @Test func aGivenFENIsTheStartWhenAbsentAndNamedWhenBad() throws {
        #expect(try Position(given: nil) == .start)
        #expect(try Position(given: "startpos") == .start)
        #expect(try Position(given: "x5o/7/7/7/7/7/o5x o 0 1").sideToMove == .o)
        #expect(throws: BadFEN(fen: "x5o/7 x", reason: .wrongRankCount(2))) { try Position(given: "x5o/7 x") }
        #expect(
            BadFEN(fen: "x5o/7 x", reason: .wrongRankCount(2)).description
                == "bad FEN 'x5o/7 x': the board must have 7 ranks separated by '/', not 2")
    }
}
