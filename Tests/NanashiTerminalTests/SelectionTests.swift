import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct SelectionTests {
    /// x on a7 b6 g1, o on a1 g7, a blocker on d4; x to move (and the same with colors swapped).
    static let fen = "x5o/1x5/7/3-3/7/7/o5x x 0 1"
    static let mirrored = "o5x/1o5/7/3-3/7/7/x5o o 0 1"

    @Test(arguments: [fen, mirrored])
    func typedSquaresSelectPlayOrExplain(fen: String) throws {
        let position = try Position(fen: fen)
        let side = position.sideToMove
        func action(_ name: String, selected: String? = nil) -> Result<Selection.Action, Selection.Problem> {
            Selection.action(for: Square(name)!, selected: selected.map { Square($0)! }, in: position)
        }
        #expect(action("b6") == .success(.select(Square("b6")!)))
        #expect(action("a7", selected: "b6") == .success(.select(Square("a7")!)))
        #expect(action("b6", selected: "b6") == .success(.deselect))
        #expect(action("c5", selected: "b6") == .success(.play(.clone(to: Square("c5")!))))
        #expect(
            action("d5", selected: "b6") == .success(.play(.jump(from: Square("b6")!, to: Square("d5")!))))
        // Next to a7 too, but with b6 selected a two-step square is a jump from b6.
        #expect(
            action("b4", selected: "b6") == .success(.play(.jump(from: Square("b6")!, to: Square("b4")!))))
        #expect(action("e5", selected: "b6") == .failure(.outOfReach(from: Square("b6")!, to: Square("e5")!)))
        #expect(action("c5") == .success(.play(.clone(to: Square("c5")!))))
        #expect(action("d5") == .failure(.noCloneTo(Square("d5")!, side)))
        #expect(action("a1") == .failure(.opponentPiece(Square("a1")!, side.opponent)))
        #expect(action("d4", selected: "b6") == .failure(.blocker(Square("d4")!)))
    }

    @Test func problemsReadAsSentences() {
        #expect(
            Selection.Problem.outOfReach(from: Square("b6")!, to: Square("e5")!).description
                == "b6 cannot reach e5: a clone goes one step, a jump two")
        #expect(
            Selection.Problem.noCloneTo(Square("d5")!, .o).description
                == "no piece of o is next to d5; to jump, select a piece or type both squares")
        #expect(
            Selection.Problem.opponentPiece(Square("a1")!, .o).description
                == "a1 holds a piece of o; select one of yours")
    }

    @Test func nothingCanBeSelectedOnceTheGameIsOver() throws {
        let position = try Position(fen: "7/7/7/7/7/7/x6 o 0 1")
        #expect(Selection.action(for: Square("b2")!, selected: nil, in: position) == .failure(.gameOver))
    }
}
