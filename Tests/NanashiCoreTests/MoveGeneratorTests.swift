import NanashiTestSupport
import Testing

@testable import NanashiCore

extension SplitMix64 {
    /// A number in `0..<bound`, so that the random positions are the same on every run.
    fileprivate mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Every clone and jump that the rules allow, found by asking `isLegal` about every candidate:
/// a reference that shares no code with the generator.
private func movesByTheRules(_ position: Position) -> Set<Move> {
    var moves: Set<Move> = []
    for to in Square.all {
        if position.isLegal(.clone(to: to)) { moves.insert(.clone(to: to)) }
        for from in Square.all where position.isLegal(.jump(from: from, to: to)) {
            moves.insert(.jump(from: from, to: to))
        }
    }
    return moves
}

@Suite(.blocking) struct MoveGeneratorTests {
    /// Boards of every density (2 to 95% full), a few blockers on most, either side to move.
    static func randomPositions(count: Int) -> [Position] {
        var random = SplitMix64(seed: 2026)
        var positions: [Position] = []
        while positions.count < count {
            let fill = 2 + random.next(94)
            let blockerShare = random.next(4) == 0 ? 0 : random.next(20)
            let rows = (0..<7).map { _ in
                String(
                    (0..<7).map { _ -> Character in
                        if random.next(100) >= fill { return "1" }
                        if random.next(100) < blockerShare { return "-" }
                        return random.next(2) == 0 ? "x" : "o"
                    })
            }
            let side = random.next(2) == 0 ? "x" : "o"
            if let position = try? Position(fen: rows.joined(separator: "/") + " \(side) 0 1") {
                positions.append(position)
            }
        }
        return positions
    }

    @Test func generatesExactlyTheMovesTheRulesAllowOnThousandsOfPositions() throws {
        var withBlockers = 0
        var passes = 0
        let moves = UnsafeMutablePointer<PackedMove>.allocate(capacity: MoveGenerator.maximumMoves)
        defer { moves.deallocate() }
        // Random boards seldom leave a side without a move: two that do, one per colour.
        let forcedPasses = try ["xoo4/ooo4/ooo4/7/7/7/7 x 0 1", "oxx4/xxx4/xxx4/7/7/-6/7 o 0 1"].map {
            try Position(fen: $0)
        }
        for position in Self.randomPositions(count: 3000) + forcedPasses {
            if position.isGameOver {
                #expect(position.legalMoves().isEmpty)
                continue
            }
            if !position.blockers.isEmpty { withBlockers += 1 }
            let count = position.generateMoves(into: moves)
            let generated = (0..<count).map { MoveCode.unpack(moves[$0]) }
            #expect(Set(generated).count == count, "a move twice in \(position.fen)")
            #expect(Set(generated) == movesByTheRules(position), "\(position.fen)")
            if count == 0 {
                #expect(position.legalMoves() == [.pass])
                #expect(position.legalMoveCount == 1)
                passes += 1
            } else {
                #expect(position.legalMoves() == generated)
                #expect(position.legalMoveCount == count)
            }
        }
        #expect(withBlockers > 1000)
        #expect(passes == 2)
    }

    @Test func clonesComeFirstByDestinationThenJumpsByOriginAndDestination() throws {
        let position = try Position(fen: "3o3/7/7/7/7/7/x5x x 0 1")
        #expect(
            position.legalMoves().map(\.description) == [
                "b1", "f1", "a2", "b2", "f2", "g2", "a1c1", "a1c2", "a1a3", "a1b3", "a1c3", "g1e1", "g1e2",
                "g1e3",
                "g1f3", "g1g3",
            ])
    }

    @Test(arguments: [Move.pass, .clone(to: Square("d4")!), .jump(from: Square("a1")!, to: Square("c3")!)])
    func packingAMoveAndUnpackingItGivesItBack(move: Move) {
        #expect(MoveCode.unpack(MoveCode.pack(move)) == move)
        #expect(MoveCode.pack(move) != MoveCode.none)
    }

    @Test func neighbourCountsEveryTouchOnce() throws {
        // Pieces on b6 and a7: b7 touches both, c5 only b6, d4 neither; b6 has 8 neighbours, a7 3.
        let pieces = Bitboard([Square("b6")!, Square("a7")!]).rawValue
        #expect(MoveGenerator.neighbourCount(of: pieces, on: Bitboard([Square("b7")!]).rawValue) == 2)
        #expect(MoveGenerator.neighbourCount(of: pieces, on: Bitboard([Square("c5")!]).rawValue) == 1)
        #expect(MoveGenerator.neighbourCount(of: pieces, on: Bitboard([Square("d4")!]).rawValue) == 0)
        #expect(MoveGenerator.neighbourCount(of: pieces, on: Bitboard.all.rawValue) == 8 + 3)
    }
}
