import Testing

@testable import NanashiCore

struct ZobristTests {
    @Test(arguments: [
        "f2 a1c3 a7c5 g7g6 0000",
        "a7c5 g7e5 c5a7 e5g7",
        "g2 a2 f3 b3 e4 c4 d5",
    ])
    func incrementalHashEqualsTheHashOfTheSamePositionReadFromFEN(moves: String) throws {
        var position = Position.start
        for text in moves.split(separator: " ") {
            guard let next = try? position.play(move(String(text))) else { break }
            position = next
            #expect(position.hash == (try Position(fen: position.fen)).hash)
        }
    }

    @Test func transposedMoveOrdersGiveTheSameHash() throws {
        let one = try Position.start.after("f2 b1 g2 a2")
        let other = try Position.start.after("g2 a2 f2 b1")
        #expect(one.fen == other.fen)
        #expect(one.hash == other.hash)
    }

    @Test func sideToMoveAndBlockersChangeTheHash() throws {
        let x = try position("x5o/7/7/7/7/7/o5x x 0 1")
        let o = try position("x5o/7/7/7/7/7/o5x o 0 1")
        let blocked = try position("x5o/7/7/3-3/7/7/o5x x 0 1")
        #expect(Set([x.hash, o.hash, blocked.hash]).count == 3)
        #expect(x.hash == (try position("x5o/7/7/7/7/7/o5x x 55 9")).hash)
    }

    @Test func allPositionsTwoPliesDeepHashDifferently() {
        var hashes: [UInt64: String] = [:]
        for first in Position.start.legalMoves() {
            let one = try! Position.start.play(first)
            for second in one.legalMoves() {
                let two = try! one.play(second)
                if let seen = hashes[two.hash] { #expect(seen == two.fen) }
                hashes[two.hash] = two.fen
            }
        }
        #expect(hashes.count > 200)
    }
}
