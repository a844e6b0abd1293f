import CSearchMemory
import NanashiTestSupport
import Testing

@testable import NanashiAI

/// `nanashi_best_index`, the selection sort's step, against the plain rule it must keep: the
/// first of the highest scores (the search's tree depends on which of equal scores comes first);
/// and the scores that order the root's moves.
struct MoveOrderTests {
    static func firstOfHighest(_ scores: [Int32], from: Int) -> Int {
        var best = from
        for index in from + 1..<scores.count where scores[index] > scores[best] { best = index }
        return best
    }

    static func bestIndex(_ scores: [Int32], from: Int) -> Int {
        scores.withUnsafeBufferPointer {
            Int(nanashi_best_index($0.baseAddress!, Int32(from), Int32(scores.count)))
        }
    }

    @Test func findsTheFirstOfTheHighestAcrossEveryLengthAndStart() {
        var generator = SeededGenerator(seed: 25)
        for count in 1...70 {
            for from in 0..<count {
                for range in [Int32(0)...Int32(3), Int32.min...Int32.max] {
                    let scores = (0..<count).map { _ in Int32.random(in: range, using: &generator) }
                    #expect(
                        Self.bestIndex(scores, from: from) == Self.firstOfHighest(scores, from: from),
                        "\(scores) from \(from)")
                }
            }
        }
    }

    @Test func handlesTheExtremeScores() {
        let lowest = [Int32](repeating: .min, count: 33)
        #expect(Self.bestIndex(lowest, from: 0) == 0)
        #expect(Self.bestIndex(lowest, from: 17) == 17)
        var table = lowest
        table[32] = .max
        table[20] = .max
        #expect(Self.bestIndex(table, from: 0) == 20)
        #expect(Self.bestIndex(table, from: 21) == 32)
        #expect(Self.bestIndex([5, 9, 9, -1], from: 0) == 1)
        #expect(Self.bestIndex([5, 9, 9, -1], from: 3) == 3)
    }

    /// At the root, a move the iterations before have searched comes after the table's move and
    /// before every other, the one that took more nodes first.
    @Test func rootMovesSearchedBeforeComeByTheirNodes() {
        #expect(Search.searchedRootMoveScore(nodes: 0) == nil)
        let few = Search.searchedRootMoveScore(nodes: 4_000)!
        let many = Search.searchedRootMoveScore(nodes: 400_000)!
        #expect(few < many)
        #expect(Search.searchedRootMoveScore(nodes: 1)! > Int32(36) << 22 + 2 * Search.killerBonus)
        #expect(Search.searchedRootMoveScore(nodes: .max)! < Search.tableMoveScore)
    }
}
