import NanashiCore
import Testing

@testable import NanashiTerminal

// The game loop alone: commands and moves in, effects out, no console.

private func square(_ name: String) -> Square { Square(name)! }

/// x on a7 walled in by blockers: x must pass while o, on g1, can move.
private let walledIn = "x--4/---4/---4/7/7/7/6o x 0 1"

@Suite struct GameLoopTests {
    @Test func aPieceTypedAtTheKeyboardIsSelectedThenMovedWithTheSamePrompt() {
        var loop = GameLoop(game: Game(), keyboard: [.x, .o])
        #expect(loop.turn == .keyboard(.x))
        #expect(loop.prompt == "x> ")
        #expect(loop.handle(.square(square("a7"))) == [.draw])
        #expect(loop.prompt == "x [a7]> ")
        #expect(loop.screen == BoardRenderer().render(.start, selected: square("a7")))
        // The selected piece can jump to c5; the loop submits, the driver plays.
        #expect(loop.handle(.square(square("c5"))) == [.submit(.jump(from: square("a7"), to: square("c5")))])
        loop.play(.jump(from: square("a7"), to: square("c5")))
        #expect(loop.prompt == "o> ")
        #expect(loop.turn == .keyboard(.o))
        #expect(loop.screen.contains(" last move: x a7c5\n"))
    }

    @Test func typingTheSelectedPieceAgainDropsIt() {
        var loop = GameLoop(game: Game(), keyboard: [.x])
        _ = loop.handle(.square(square("g1")))
        #expect(loop.handle(.square(square("g1"))) == [.draw])
        #expect(loop.selected == nil)
        #expect(loop.prompt == "x> ")
    }

    @Test func whatCannotBePlayedIsSaidAndChangesNothing() {
        var loop = GameLoop(game: Game(), keyboard: [.x])
        #expect(loop.handle(.square(square("g7"))) == [.say("g7 holds a piece of o; select one of yours")])
        #expect(
            loop.handle(.square(square("d4")))
                == [.say("no piece of x is next to d4; to jump, select a piece or type both squares")])
        #expect(
            loop.handle(.move(.jump(from: square("g7"), to: square("e5"))))
                == [.say("illegal move g7e5: the piece on the origin is not yours")])
        #expect(loop.game == Game())
        #expect(loop.handle(.move(.clone(to: square("b6")))) == [.submit(.clone(to: square("b6")))])
    }

    @Test func theBoardCommandsAndTheOnesLeftToTheDriver() {
        var loop = GameLoop(game: Game(), keyboard: [.x], labels: [.x: "you"])
        #expect(
            loop.handle(.moves) == [
                .say("legal moves: " + Position.start.legalMoves().map(\.description).joined(separator: " "))
            ])
        #expect(loop.handle(.flip) == [.draw])
        #expect(loop.screen == BoardRenderer().render(.start, flipped: true, labels: [.x: "you"]))
        #expect(loop.handle(.board) == [.draw])
        #expect(loop.handle(.nothing) == [])
        for command in [
            Command.help, .undo, .hint, .save(path: "a.pgn"), .load(path: "a.pgn"), .resign, .quit,
        ] {
            #expect(loop.handle(command) == [.command(command)])
        }
    }

    @Test func aSideWithNoMoveIsToldToPass() throws {
        var loop = GameLoop(game: Game(start: try Position(fen: walledIn)), keyboard: [.x])
        #expect(loop.turn == .forcedPass(.x))
        #expect(loop.forcedPass() == [.say("x has no move and passes"), .submit(.pass)])
        loop.play(.pass)
        #expect(loop.turn == .source(.o))
    }

    @Test func aSourcesMoveIsPlayedAndAnIllegalOneResigns() {
        var loop = GameLoop(game: Game(), keyboard: [.x])
        #expect(loop.handle(.move(.clone(to: square("b6")))) == [.submit(.clone(to: square("b6")))])
        loop.play(.clone(to: square("b6")))
        #expect(loop.turn == .source(.o))
        #expect(loop.receive(.clone(to: square("b2"))) == [.draw])
        #expect(loop.game.moves.map(\.description) == ["b6", "b2"])
        #expect(loop.turn == .keyboard(.x))
        var cheated = GameLoop(game: Game(), keyboard: [.o])
        #expect(cheated.receive(.pass) == [.say("x sent an illegal move 0000; it resigns")])
        #expect(cheated.turn == .over(.resignation(by: .x)))
        #expect(cheated.game == Game())
    }

    @Test func resigningEndsTheGameAndUndoGoesBackToTheKeyboardsTurn() throws {
        var loop = GameLoop(
            game: try Game(start: .start, moves: [.clone(to: square("b6")), .clone(to: square("b2"))]),
            keyboard: [.x])
        _ = loop.handle(.square(square("a7")))
        #expect(loop.undo() == 2)
        #expect(loop.selected == nil)
        #expect(loop.game == Game())
        #expect(loop.undo() == 0)
        loop.resign()
        #expect(loop.turn == .over(.resignation(by: .x)))
    }

    @Test func aGameReplacedKeepsTheBoardsSideAndDropsTheSelection() throws {
        var loop = GameLoop(game: Game(), keyboard: [.x, .o], flipped: true)
        _ = loop.handle(.square(square("a7")))
        let loaded = try Game(start: .start, moves: [.clone(to: square("b6"))])
        loop.replace(with: loaded)
        #expect(loop.selected == nil)
        #expect(
            loop.screen == BoardRenderer().render(loaded.current, lastMove: loaded.lastMove, flipped: true))
    }
}
