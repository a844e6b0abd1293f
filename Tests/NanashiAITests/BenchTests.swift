import NanashiAI
import Testing

@Test func benchSearchesEachPositionThenTotalsItsNodes() {
    func lines() -> [String] {
        var lines: [String] = []
        Bench.run(depth: 2, hashMegabytes: 1, evaluation: .classic) { lines.append($0) }
        return lines
    }
    let first = lines()
    #expect(first.count == Bench.positions.count + 1)
    for (line, fen) in zip(first, Bench.positions) {
        #expect(line.hasPrefix("\(fen): bestmove "), "\(line)")
    }
    let nodes = first.dropLast().map { Int($0.split(separator: " ").last!)! }
    #expect(first.last!.hasPrefix("nodes \(nodes.reduce(0, +)) time "))
    // The node counts are the search's signature: the same on every run (only the time differs).
    let second = lines()
    #expect(second.dropLast() == first.dropLast())
    #expect(second.last!.split(separator: " ").prefix(2) == first.last!.split(separator: " ").prefix(2))
}
