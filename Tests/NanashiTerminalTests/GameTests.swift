import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct GameTests {
    private func undoing(_ game: inout Game, _ sides: Set<Side>) -> Int {
        game.undo(toTurnOf: sides)
    }

    private func moves(_ text: String) throws -> [Move] {
        try text.split(separator: " ").map { try Move(notation: $0) }
    }

    @Test func playAndUndoKeepPositionsInStep() throws {
        var game = try Game(start: .start, moves: moves("b6 b2 g1e2"))
        #expect(
            game.current
                == (try Position.start.play(moves("b6")[0]).play(moves("b2")[0]).play(moves("g1e2")[0])))
        #expect(game.lastMove?.summary == "x g1e2")
        let undone = game.undo()
        #expect(undone)
        #expect(game.moves == (try moves("b6 b2")))
        #expect(game.lastMove?.summary == "o b2")
    }

    @Test func anIllegalMoveChangesNothing() throws {
        var game = try Game(start: .start, moves: moves("b6"))
        let before = game
        do {
            try game.play(.clone(to: Square("e4")!))
            Issue.record("e4 has no piece of o next to it")
        } catch {
            #expect(error.reason == .noPieceInReach)
        }
        #expect(game == before)
    }

    @Test func undoAgainstTheAITakesBackBothMoves() throws {
        var game = try Game(start: .start, moves: moves("b6 b2 g1e2 f6"))
        #expect(undoing(&game, [.x]) == 2)
        #expect(game.moves == (try moves("b6 b2")))
        #expect(game.current.sideToMove == .x)
        // Playing o, the person's last move is b2; the AI's opening b6 stays.
        #expect(undoing(&game, [.o]) == 1)
        #expect(undoing(&game, [.o]) == 0)
        #expect(game.moves == (try moves("b6")))
    }

    @Test func hotSeatUndoTakesBackOneMove() throws {
        var game = try Game(start: .start, moves: moves("b6 b2"))
        #expect(undoing(&game, [.x, .o]) == 1)
        #expect(undoing(&game, [.x, .o]) == 1)
        #expect(undoing(&game, [.x, .o]) == 0)
        #expect(game.moves.isEmpty)
    }

    @Test func undoSkipsOverForcedPasses() throws {
        // o (a1) is walled in by blockers and must pass after each of x's clones.
        let start = try Position(fen: "x6/7/7/7/---4/---4/o--4 x 0 1")
        for people: Set<Side> in [[.x], [.x, .o]] {
            var game = try Game(start: start, moves: moves("b7 0000 c7 0000"))
            #expect(undoing(&game, people) == 2)
            #expect(game.moves == (try moves("b7 0000")))
        }
    }

    @Test(arguments: [
        (Outcome.resignation(by: .x), "game over: o wins (x resigned)\nfinal count: x 2, o 2\n", "0-1"),
        (
            Outcome(winner: .x, reason: .timeout),
            "game over: x wins (o ran out of time)\nfinal count: x 2, o 2\n", "1-0"
        ),
        (
            Outcome(winner: .o, reason: .abandonment),
            "game over: o wins (x left the game)\nfinal count: x 2, o 2\n", "0-1"
        ),
        (
            Outcome(winner: nil, reason: .fiftyMoveRule),
            "game over: draw (fifty-move rule: 100 plies without a clone)\nfinal count: x 2, o 2\n", "1/2-1/2"
        ),
        (
            Outcome(winner: .x, reason: .lockedBoard),
            "game over: x wins (no one can move: the board is locked)\nfinal count: x 2, o 2\n", "1-0"
        ),
    ])
    func endOfGameSummary(end: Outcome, summary: String, result: String) {
        #expect(end.summary(final: .start) == summary)
        #expect(end.result == result)
    }
}
