import Testing

@testable import NanashiCore

struct LayoutTests {
    @Test func everyLayoutHasItsNameAndExactFEN() {
        #expect(
            Layout.all.map { "\($0.name) \($0.fen)" } == [
                "standard x5o/7/7/7/7/7/o5x x 0 1",
                "square x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                "column x5o/7/3-3/7/3-3/7/o5x x 0 1",
                "corners x5o/1-3-1/7/7/7/1-3-1/o5x x 0 1",
                "row x5o/7/7/2-1-2/7/7/o5x x 0 1",
                "cross x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1",
                "centre x5o/7/7/3-3/7/7/o5x x 0 1",
                "gates x5o/2-1-2/7/7/7/2-1-2/o5x x 0 1",
                "flanks x5o/7/1-3-1/7/1-3-1/7/o5x x 0 1",
                "edges x2-2o/7/7/-5-/7/7/o2-2x x 0 1",
                "posts x1-1-1o/7/7/7/7/7/o1-1-1x x 0 1",
            ])
        #expect(Layout.standard.position == .start)
        #expect(Layout.standard.isStandard && !Layout.all.dropFirst().contains(where: \.isStandard))
    }

    @Test func layoutsAreFairPlayableAndDistinct() {
        #expect(Set(Layout.all.map(\.name)).count == Layout.all.count)
        #expect(Set(Layout.all.map(\.position)).count == Layout.all.count)
        for layout in Layout.all {
            #expect(layout.name.utf8.count <= Layout.longestName)
            #expect(!layout.position.isGameOver && layout.position.sideToMove == .x)
            // Symmetric between the files a-c and g-e.
            let mirrored = Set(layout.blockers.map { Square(file: 6 - $0.file, rank: $0.rank)! })
            #expect(mirrored == Set(layout.blockers), "\(layout.name)")
            #expect(try! Position(startingAt: layout.fen) == layout.position)
        }
    }

    @Test(arguments: ["cross", "posts", "standard"])
    func aLayoutIsFoundByNameAndByItsPosition(name: String) throws {
        let layout = try #require(Layout.named(name))
        #expect(layout.name == name)
        #expect(Layout.starting(layout.position) == layout)
    }

    @Test(arguments: ["Cross", "", "no-such-layout", String(repeating: "cross", count: 2000)])
    func aNameOfNoLayoutFindsNone(name: String) {
        #expect(Layout.named(name) == nil)
    }

    @Test func aPositionOfNoLayoutFindsNone() throws {
        #expect(Layout.starting(try Position(fen: "x5o/7/7/7/7/7/o5x o 0 1")) == nil)
    }

    @Test(arguments: [
        (String(repeating: "x", count: 10_000), BadStart.tooLong(bytes: 10_000)),
        ("x5o/7 x", .malformed(.wrongRankCount(2))),
        ("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo x 0 1", .noMoves),
        ("x6/7/7/7/7/7/7 o 0 1", .over(Outcome(winner: .x, reason: .noPieces))),
        ("x5o/7/7/7/7/7/o5x x 100 1", .over(Outcome(winner: nil, reason: .fiftyMoveRule))),
    ])
    func aBadStartIsRefusedWithItsReason(fen: String, reason: BadStart) {
        #expect(throws: reason) { try Position(startingAt: fen) }
    }

    @Test func badStartsSayWhy() {
        #expect(BadStart.tooLong(bytes: 10_000).description == "a start FEN is at most 100 bytes, not 10000")
        #expect(BadStart.noMoves.description == "neither side has a move from this FEN")
        #expect(
            BadStart.over(Outcome(winner: .x, reason: .noPieces)).description
                == "the game is over at this FEN: x wins (o has no pieces left)")
    }

    @Test func aCustomStartWithinTheLimitIsTaken() throws {
        let position = try Position(startingAt: "x5o/7/7/3x3/7/7/o5o o 3 9")
        #expect(position.fen == "x5o/7/7/3x3/7/7/o5o o 3 9")
        #expect(Layout.starting(position) == nil)
    }
}
