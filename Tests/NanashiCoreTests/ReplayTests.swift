import Testing

@testable import NanashiCore

struct ReplayTests {
    @Test func movesAsTextArePlayedInOrder() throws {
        let replayed = try Position.start.replaying(["a7c5", "g7f6", "b6"])
        // A clone is written as its target alone.
        #expect(replayed.moves.map(\.description) == ["a7c5", "f6", "b6"])
        #expect(replayed.position.fen == "6o/1x3o1/2x4/7/7/7/o5x o 0 2")
        let none = try Position.start.replaying([String]())
        #expect(none.moves.isEmpty && none.position == .start)
    }

    @Test func aMoveThatIsNotAMoveIsReportedWithItsNumber() {
        let error = ReplayError.notAMove(ply: 2, .badSquare("h9"))
        #expect(throws: error) { try Position.start.replaying(["a7c5", "h9", "b6"]) }
        #expect(error.ply == 2)
        #expect(error.description == "bad move: 'h9' is not a square: expected a1 to g7")
    }

    @Test func anIllegalMoveIsReportedWithThePositionItWasTriedIn() throws {
        let afterJump = try Position.start.play(Move(notation: "a7c5"))
        let illegal = try #require(throws: IllegalMoveError.self) { try afterJump.play(.pass) }
        let error = ReplayError.illegal(ply: 2, illegal)
        #expect(throws: error) { try Position.start.replaying(["a7c5", "0000", "b6"]) }
        #expect(
            error.description
                == "illegal move 0000: you can only pass when you have no move in 6o/7/2x4/7/7/7/o5x o 1 1")
    }
}
