import Foundation
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

    @Test func movesAndSquaresAreCodedAsTheirNotation() throws {
        let moves: [Move] = [.clone(to: Square("f2")!), .jump(from: Square("a7")!, to: Square("c5")!), .pass]
        let text = #"[["f2","a7c5","0000"],["a1","g7"]]"#
        struct Both: Codable, Equatable {
            var moves: [Move]
            var squares: [Square]
            init(moves: [Move], squares: [Square]) {
                self.moves = moves
                self.squares = squares
            }
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                moves = try container.decode([Move].self)
                squares = try container.decode([Square].self)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encode(moves)
                try container.encode(squares)
            }
        }
        let both = Both(moves: moves, squares: [Square("a1")!, Square("g7")!])
        #expect(String(decoding: try JSONEncoder().encode(both), as: UTF8.self) == text)
        #expect(try JSONDecoder().decode(Both.self, from: Data(text.utf8)) == both)
    }

    @Test(arguments: [#"["h1"]"#, #"["a0"]"#, #"["f"]"#, #"[7]"#])
    func textThatIsNoSquareIsRefused(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Square].self, from: Data(text.utf8)) }
    }

    @Test(arguments: [#"["f"]"#, #"["a1h1"]"#, #"["00000"]"#, #"[""]"#, #"[null]"#])
    func textThatIsNoMoveIsRefused(text: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Move].self, from: Data(text.utf8)) }
    }
}
