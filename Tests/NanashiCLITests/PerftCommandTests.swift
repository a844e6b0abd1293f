import NanashiTestSupport
import Testing

@Suite(.blocking) struct PerftCommandTests {
    @Test func printsOneLinePerDepth() throws {
        let result = try NanashiProcess.run(["perft", "--depth", "3"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for (line, (depth, nodes)) in zip(lines, [(1, 16), (2, 256), (3, 6460)]) {
            let words = line.split(separator: " ")
            try #require(words.count == 9)
            #expect(Array(words[0...3]) == ["depth", "\(depth)", "nodes", "\(nodes)"])
            #expect(words[4] == "time" && Int(words[5]) != nil && words[6] == "ms")
            #expect(words[7] == "nps" && UInt64(words[8]) != nil)
        }
    }

    @Test func dividesBeforeTheTotals() throws {
        let result = try NanashiProcess.run([
            "perft", "--fen", "7/7/7/7/-------/-------/x5o x 0 1", "--depth", "3", "--divide",
        ])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["b1: 6", "a1c1: 7"])
        #expect(
            lines.dropFirst(2).map { $0.split(separator: " ").prefix(4).joined(separator: " ") } == [
                "depth 1 nodes 2", "depth 2 nodes 4", "depth 3 nodes 13",
            ])
    }

    @Test(arguments: [
        (
            ["perft", "--fen", "x5o/7/7/7/7/7 x 0 1"],
            "nanashi: bad FEN 'x5o/7/7/7/7/7 x 0 1': the board must have 7 ranks separated by '/', not 6\n"
        ),
        (["perft", "--depth", "0"], "nanashi: bad depth 0: use 1 to 12\n"),
        (["perft", "--depth", "13"], "nanashi: bad depth 13: use 1 to 12\n"),
    ])
    func badInputIsOneLineAndExitCodeTwo(arguments: [String], message: String) throws {
        let result = try NanashiProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message)
    }
}
