import NanashiCore
import Testing

struct NullMoveTests {
    @Test(arguments: ["x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/7/7/7/7/o5x o 7 3"])
    func aNullMoveHandsTheTurnOverLikeAPass(fen: String) throws {
        let position = try Position(fen: fen)
        var next = position
        next.makeNullMove()
        let expected = try Position(
            fen: "x5o/7/7/7/7/7/o5x \(position.sideToMove.opponent) \(position.halfmoveClock + 1) "
                + "\(position.fullmoveNumber + (position.sideToMove == .o ? 1 : 0))")
        #expect(next == expected)
        #expect(next.hash == expected.hash)
        next.makeNullMove()
        #expect(next.hash == position.hash)
        #expect(next.pieces(of: .x) == position.pieces(of: .x))
    }
}
