import Testing

@testable import NanashiCore

struct GameRecordTests {
    @Test func writesTagsThenNumberedMovesThenTheResult() throws {
        var game = GameRecord(tags: ["Event": "Test", "White": "Alice", "Black": "Bob"])
        for text in ["a7c5", "a2", "g2", "0000"].prefix(3) { try game.append(move(text)) }
        game.result = "*"
        #expect(
            game.pgn == """
                [Event "Test"]
                [Site "?"]
                [Date "?"]
                [Round "?"]
                [White "Alice"]
                [Black "Bob"]
                [Result "*"]
                [FEN "x5o/7/7/7/7/7/o5x x 0 1"]

                1. a7c5 a2 2. g2 *

                """)
    }

    @Test func aGameStartingWithOToMoveNumbersItsFirstMoveWithDots() throws {
        var game = GameRecord(start: try position("x5o/7/7/7/7/7/o5x o 0 7"))
        try game.append(move("b1"))
        try game.append(move("f2"))
        #expect(game.pgn.hasSuffix("\n\n7... b1 8. f2 *\n"))
    }

    /// A game from anywhere but the standard start says so with `SetUp` beside its `FEN`, as
    /// PGN asks; one from the start has no `SetUp`, whatever tag it was read with.
    @Test func aGameFromElsewhereThanTheStartHasSetUp() throws {
        let cross = try position("x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1")
        let elsewhere = try GameRecord(start: cross, moves: [move("f2")])
        #expect(elsewhere.pgn.contains("[FEN \"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1\"]\n[SetUp \"1\"]\n"))
        #expect(try GameRecord(pgn: elsewhere.pgn).pgn == elsewhere.pgn)
        let fromStart = try GameRecord(pgn: "[SetUp \"1\"]\n[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]\n\n1. f2 *")
        #expect(!fromStart.pgn.contains("SetUp"), "\(fromStart.pgn)")
    }

    @Test func readsWhatItWritesIncludingLongGames() throws {
        var game = GameRecord(tags: ["Event": "Round \"trip\""])
        var position = Position.start
        while !position.isGameOver && game.moves.count < 120 {
            let moves = position.legalMoves()
            let move = moves[(game.moves.count * 7) % moves.count]
            try game.append(move)
            position = try position.play(move)
        }
        game.result = position.outcome?.result ?? "*"
        let read = try GameRecord(pgn: game.pgn)
        #expect(read.moves == game.moves)
        #expect(read.result == game.result)
        #expect(read.pgn == game.pgn)
        #expect(read.current == position)
        #expect(read.positions.count == game.moves.count + 1)
        #expect(game.pgn.split(separator: "\n").last?.hasPrefix("1. ") == true)
        #expect(game.pgn.split(separator: "\n").count == 9)  // 8 tags, then the moves on one line
    }

    @Test func aPlayedGameWithItsOutcomeSaysHowItEnded() throws {
        let moves = try ["a7c5", "a2", "g2"].map(move)
        let record = try GameRecord(
            moves: moves, tags: ["Event": "Test"], outcome: .resignation(by: .o))
        #expect(record.moves == moves)
        #expect(record.current.fen == "6o/7/2x4/7/7/o5x/o5x o 0 2")
        #expect(
            record.pgn == """
                [Event "Test"]
                [Site "?"]
                [Date "?"]
                [Round "?"]
                [White "?"]
                [Black "?"]
                [Result "1-0"]
                [FEN "x5o/7/7/7/7/7/o5x x 0 1"]
                [Reason "resign"]
                [Termination "normal"]

                1. a7c5 a2 2. g2 1-0

                """)
        let unfinished = try GameRecord(moves: moves)
        #expect(unfinished.result == "*" && unfinished.tags.isEmpty)
    }

    @Test func aPlayedGameWithAnIllegalMoveIsRefused() throws {
        #expect(throws: IllegalMoveError.self) {
            try GameRecord(moves: [move("f2"), move("f3")])
        }
    }

    @Test func undoingMovesBringsBackTheEarlierPosition() throws {
        var record = try GameRecord(moves: ["f2", "b2", "g1e3"].map(move))
        record.removeLast(2)
        #expect(record.current == (try Position.start.play(move("f2"))))
        try record.append(move("f6"))
        #expect(record.current.fen == "x5o/5o1/7/7/7/5x1/o5x x 0 2")
    }

    @Test func readsPythonAtaxxStyleWithCommentsAndVariations() throws {
        let pgn = """
            [Event "0003"]
            [White "Player 1"]
            [Black "Player 2"]
            [Result "*"]
            [FEN "x5o/7/7/7/7/7/o5x x"]

            1. a7c7 (1. a7c5 { Test }) 1... g7f5 (1... a2 { Test } 2. g2 (2. f2 { Test }))
            2. g1f3 a1b3 { Test 123 } ; a line comment
            3. f3d4 $1 b3c5!? 1-0

            [Event "next game"]
            """
        let game = try GameRecord(pgn: pgn)
        #expect(game.moves.map(\.description) == ["a7c7", "g7f5", "g1f3", "a1b3", "f3d4", "b3c5"])
        #expect(game.result == "1-0")
        #expect(game.tags["White"] == "Player 1")
        #expect(game.tags["Event"] == "0003")
    }

    @Test(arguments: [
        ("", PGNError.empty),
        ("[Event Test]\n\n1. f2 *", .badTag("[Event Test]")),
        ("[FEN \"x5o/7 x\"]\n\n1. f2 *", .badFEN(.wrongRankCount(2))),
        ("1. f2 zz *", .badMove("zz", .badSquare("zz"))),
        ("1. f2 { open comment *", .unbalanced("comment: '{' is never closed")),
        ("1. f2 (1. g2 *", .unbalanced("variation: '(' is never closed")),
        ("1. f2 ) *", .unbalanced("')' without its '('")),
        ("1. f2 * g2", .trailingText("g2")),
    ])
    func refusesMalformedText(pgn: String, error: PGNError) {
        #expect(throws: error) { try GameRecord(pgn: pgn) }
    }

    @Test func refusesAnIllegalMoveAndSaysWhichPly() throws {
        #expect {
            try GameRecord(pgn: "1. f2 f2 *")
        } throws: { error in
            guard case .illegalMove(2, let illegal) = error as? PGNError else { return false }
            return illegal.reason == .destinationOccupied
        }
    }

    @Test func appendingAnIllegalMoveChangesNothing() throws {
        var game = GameRecord()
        try game.append(move("f2"))
        #expect(throws: IllegalMoveError.self) { try game.append(move("f3")) }
        #expect(game.moves == [try move("f2")])
        game.removeLast(5)
        #expect(game.moves.isEmpty)
    }
}

/// PGN's `Date` of a moment, in UTC, from the calendar's arithmetic alone: the epoch, a leap day,
/// the day before the epoch, the last second of a century's last year, a Unix time mid-day.
@Test(arguments: [
    (Int64(0), "1970.01.01"), (1_700_000_000, "2023.11.14"), (951_782_400, "2000.02.29"),
    (-86_400, "1969.12.31"), (-1, "1969.12.31"), (4_102_444_799, "2099.12.31"), (1_764_633_600, "2025.12.02"),
])
func aMomentsPGNDateIsItsUTCDay(seconds: Int64, date: String) {
    #expect(GameRecord.pgnDate(secondsSince1970: seconds) == date)
}
