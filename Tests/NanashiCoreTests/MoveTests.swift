import Testing

@testable import NanashiCore

struct MoveTests {
    @Test(arguments: [
        ("f2", Move.clone(to: Square("f2")!)),
        ("a7c5", .jump(from: Square("a7")!, to: Square("c5")!)),
        ("0000", .pass),
        ("b2b3", .clone(to: Square("b3")!)),
        (" g1 ", .clone(to: Square("g1")!)),
        ("A7C5", .jump(from: Square("a7")!, to: Square("c5")!)),
        ("a1d4", .jump(from: Square("a1")!, to: Square("d4")!)),
    ])
    func parses(text: String, expected: Move) throws {
        #expect(try Move(notation: text) == expected)
    }

    @Test(arguments: [
        ("", MoveParseError.empty),
        ("   ", .empty),
        ("f", .badLength("f")),
        ("a7c", .badLength("a7c")),
        ("a7c5e3", .badLength("a7c5e3")),
        ("h1", .badSquare("h1")),
        ("a8", .badSquare("a8")),
        ("a0", .badSquare("a0")),
        ("11", .badSquare("11")),
        ("z9a1", .badSquare("z9")),
        ("a1a9", .badSquare("a9")),
        ("pass", .badSquare("pa")),
    ])
    func refusesWhatIsNotAMove(text: String, error: MoveParseError) {
        #expect(throws: error) { try Move(notation: text) }
    }

    @Test(arguments: ["f2", "a7c5", "0000", "g1e3"])
    func writesTheNotationItReads(text: String) throws {
        #expect(try Move(notation: text).description == text)
    }

    @Test func squaresAreNumberedRankByRankFromA1() {
        #expect(Square("a1")?.index == 0)
        #expect(Square("g1")?.index == 6)
        #expect(Square("a2")?.index == 7)
        #expect(Square("g7")?.index == 48)
        #expect(Square(file: 3, rank: 3)?.name == "d4")
        #expect(Square(index: 49) == nil)
        #expect(Square(file: 7, rank: 0) == nil)
        #expect(Square.all.map(\.name) == (1...7).flatMap { rank in "abcdefg".map { "\($0)\(rank)" } })
    }
}
