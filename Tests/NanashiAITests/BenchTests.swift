import NanashiAI
import NanashiCore
import NanashiTestSupport
import Testing

@Test(.blocking) func benchSearchesEachPositionThenTotalsItsNodes() throws {
    func lines() throws -> [String] {
        var lines: [String] = []
        try Bench.run(depth: 2, hashMegabytes: 1, evaluation: .classic) { lines.append($0) }
        return lines
    }
    let first = try lines()
    #expect(first.count == Bench.positions.count + 1)
    for (line, fen) in zip(first, Bench.positions) {
        #expect(line.hasPrefix("\(fen): bestmove "), "\(line)")
    }
    let nodes = first.dropLast().map { Int($0.split(separator: " ").last!)! }
    #expect(first.last!.hasPrefix("nodes \(nodes.reduce(0, +)) time "))
    // The node counts are the search's signature: the same on every run (only the time differs).
    let second = try lines()
    #expect(second.dropLast() == first.dropLast())
    #expect(second.last!.split(separator: " ").prefix(2) == first.last!.split(separator: " ").prefix(2))
}

@Test func benchRefusesADepthOrATableOutOfRangeBeforeAnySearch() {
    for (depth, hash, message) in [
        (0, 16, "bad depth 0: use 1 to 20"), (9, 4097, "bad hash 4097: use 1 to 4096 MB"),
    ] {
        do throws(RangeError) {
            try Bench.run(depth: depth, hashMegabytes: hash, evaluation: .classic) {
                Issue.record("searched: \($0)")
            }
            Issue.record("bench ran at depth \(depth) with \(hash) MB")
        } catch {
            #expect(error.description == message)
        }
    }
}
