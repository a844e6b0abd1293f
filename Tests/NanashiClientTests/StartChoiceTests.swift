import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiClient

@Suite struct StartChoiceTests {
    @Test func aLayoutOrAFENIsTakenAndSent() throws {
        #expect(try StartChoice(layout: nil, fen: nil) == .standard)
        let cross = try StartChoice(layout: "cross", fen: nil)
        #expect(cross.layout.name == "cross" && cross.custom == nil)
        let custom = try StartChoice(layout: nil, fen: "x5o/7/7/7/7/7/o5x o")
        #expect(custom.custom?.fen == "x5o/7/7/7/7/7/o5x o 0 1")
    }

    @Test(
        arguments: [
            (
                "nowhere", nil,
                "no layout is named 'nowhere': standard, square, column, corners, row, cross, centre, gates, flanks, edges, posts"
            ),
            ("cross", "x5o/7/7/7/7/7/o5x x 0 1", "--layout and --fen exclude each other"),
            (
                nil, String(repeating: "7", count: 10_000),
                "--fen: a start FEN is at most 100 bytes, not 10000"
            ),
        ] as [(String?, String?, String)])
    func aBadStartSaysWhy(layout: String?, fen: String?, message: String) {
        #expect(throws: StartChoice.Problem(description: message)) {
            try StartChoice(layout: layout, fen: fen)
        }
    }
}
