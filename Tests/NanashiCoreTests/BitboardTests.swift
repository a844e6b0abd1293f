import Testing

@testable import NanashiCore

struct BitboardTests {
    @Test(arguments: Square.all)
    func ringTablesMatchTheDistanceDefinition(square: Square) {
        #expect(
            Bitboard.cloneTargets(of: square) == Bitboard(Square.all.filter { $0.distance(to: square) == 1 }))
        #expect(
            Bitboard.jumpTargets(of: square) == Bitboard(Square.all.filter { $0.distance(to: square) == 2 }))
    }

    @Test(arguments: Square.all)
    func expandingAddsTheCloneRingWithoutWrapping(square: Square) {
        #expect(Bitboard(square).expanded == (Bitboard(square) | Bitboard.cloneTargets(of: square)))
    }

    @Test func complementStaysOnTheBoard() {
        #expect((~Bitboard.empty) == Bitboard.all)
        #expect((~Bitboard.all).isEmpty)
        #expect(Bitboard.all.count == 49)
        #expect(Bitboard(rawValue: 1 << 49) == nil)
    }

    @Test func iteratesSquaresInOrder() {
        let set = Bitboard([Square("g7")!, Square("a1")!, Square("d4")!])
        #expect(Array(set).map(\.name) == ["a1", "d4", "g7"])
        #expect(set.description == "[a1, d4, g7]")
    }
}
