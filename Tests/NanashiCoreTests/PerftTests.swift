import NanashiTestSupport
import Testing

@testable import NanashiCore

/// The published libataxx perft suite. Depths are capped so a debug build runs the table in
/// seconds; the deeper counts are checked by `nanashi perft` in release (see README).
@Suite(.blocking) struct PerftTests {
    static let suite: [(fen: String, counts: [UInt64])] = [
        ("x5o/7/7/7/7/7/o5x x 0 1", [16, 256, 6460, 155888, 4_752_668]),
        ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", [14, 196, 4184, 86528, 2_266_352]),
        ("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", [14, 196, 4100, 83104, 2_114_588]),
        ("x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", [16, 256, 5948, 133264, 3_639_856]),
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", [1, 75, 249, 14270, 452980]),
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx o 0 1", [75, 249, 14270, 452980, 23_059_832]),
        ("7/7/7/2x1o2/7/7/7 x 0 1", [23, 419, 7887, 168317, 4_266_992]),
        ("7/7/7/7/-------/-------/x5o x 0 1", [2, 4, 13, 30, 73]),
        ("x5o/7/7/7/7/7/o5x x 100 1", [0, 0, 0, 0, 0]),
        ("7/7/7/7/7/7/7 x 0 1", [0, 0, 0, 0, 0]),
    ]

    /// Deepest depth checked in the unit tests, by the size of the count.
    static func depths(_ counts: [UInt64]) -> ArraySlice<UInt64> {
        counts.prefix { $0 <= 5_000_000 }
    }

    @Test(arguments: suite)
    func matchesPublishedCounts(fen: String, counts: [UInt64]) throws {
        let position = try Position(fen: fen)
        for (index, expected) in Self.depths(counts).enumerated() {
            #expect(position.perft(index + 1) == expected, "depth \(index + 1)")
        }
    }

    @Test(arguments: suite)
    func matchesPublishedCountsWithColorsSwapped(fen: String, counts: [UInt64]) throws {
        let position = try Position(fen: swappingColors(fen))
        for (index, expected) in Self.depths(counts).enumerated() {
            #expect(position.perft(index + 1) == expected, "depth \(index + 1)")
        }
    }

    @Test func depthZeroIsOneNode() throws {
        #expect(Position.start.perft(0) == 1)
        #expect(try position("7/7/7/7/7/7/7 x 0 1").perft(0) == 1)
    }

    /// `nanashi perft`'s report: with `divide`, each move's count first, then a line per depth;
    /// a depth out of 1 to 12 is refused before any line.
    @Test func theReportCountsEachDepthAndRefusesOutOfRange() throws {
        var lines: [String] = []
        try Position.start.perftReport(to: 2, divide: true) { lines.append($0) }
        #expect(lines.count == 16 + 2)
        #expect(lines.prefix(16) == ArraySlice(Position.start.divide(2).map { "\($0.move): \($0.nodes)" }))
        #expect(
            lines[16].hasPrefix("depth 1 nodes 16 time ") && lines[17].hasPrefix("depth 2 nodes 256 time "))
        for depth in [0, 13] {
            #expect(throws: RangeError(name: "depth", value: depth, range: 1...12, unit: nil)) {
                try Position.start.perftReport(to: depth, divide: false) { lines.append($0) }
            }
        }
        #expect(lines.count == 18)
    }

    @Test func divideSumsToPerftAndListsEachMoveOnce() {
        let divided = Position.start.divide(3)
        #expect(divided.count == 16)
        #expect(divided.map(\.nodes).reduce(0, +) == 6460)
        #expect(Set(divided.map(\.move)).count == 16)
        #expect(divided.first?.move == .clone(to: Square("f1")!))
    }

    @Test func perftMatchesPlayingEveryLegalMove() throws {
        // The counted last ply must agree with generating and playing each move.
        let position = try position("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1").after("f2 a2 f3 b3")
        var total: UInt64 = 0
        for move in position.legalMoves() {
            total += UInt64(try position.play(move).legalMoves().count)
        }
        #expect(total == position.perft(2))
        #expect(UInt64(position.legalMoves().count) == position.perft(1))
    }
}
