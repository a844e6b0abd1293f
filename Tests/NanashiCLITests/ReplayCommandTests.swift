import Foundation
import NanashiTestSupport
import Testing

@Suite(.blocking) struct ReplayCommandTests {
    /// `nanashi replay` on a file holding `pgn`, with `arguments` after the file, typed `input`.
    private static func replay(_ pgn: String, _ arguments: [String], input: String) throws
        -> NanashiProcess.Result
    {
        let file = FileManager.default.temporaryDirectory.appending(path: "nanashi-replay-\(UUID()).pgn")
        defer { try? FileManager.default.removeItem(at: file) }
        try pgn.write(to: file, atomically: true, encoding: .utf8)
        return try NanashiProcess.run(["replay", file.path] + arguments, input: input)
    }

    @Test func aPipedReplayStepsThroughTheGameAndEvaluates() throws {
        let result = try Self.replay(
            """
            [White "ann"]
            [Black "bob"]
            [Result "0-1"]
            [Reason "resign"]

            1. b6 f6 2. a7c5 0-1

            """, ["--depth", "1", "--no-color"], input: "n\nzz\n9\ne\nq\n")
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("ann (x) v bob (o), 0-1 (resign)\n    a  b  c  d  e  f  g\n"))
        #expect(result.stdout.contains(" last move: x b6\n ply 1 of 3\nreplay> zz\n"))
        #expect(
            result.stdout.contains(
                "replay> zz\n'zz'? n next, b back, s start, e end, a ply number, eval, q quit\n"
                    + "replay> 9\nno such position: the game has plies 0 to 3\nreplay> e\n"))
        #expect(result.stdout.hasSuffix(" last move: x a7c5\n ply 3 of 3\nreplay> q\n"))
    }

    /// `--analyse` puts the analysis under each position, as a server's game has it; it goes
    /// with a file only.
    @Test func aFileIsAnalysedHere() throws {
        let pgn = """
            [SetUp "1"]
            [FEN "6x/7/7/2ooo2/2o1o2/2ooo2/1x5 x 0 1"]

            1. f7 d3 *
            """
        let result = try Self.replay(pgn, ["--analyse", "--depth", "2", "--no-color"], input: "n\nq\n")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "? (x) v ? (o), *")
        #expect(lines[1] == "analysis at depth 2: mistakes at plies 1 (type a number to go there)")
        #expect(lines[2].hasPrefix("accuracy (moves within 0.50 pieces of the engine's): x 0% (0 of 1, "))
        // x had a win by force (b1d3 takes all of o's pieces) and played f7.
        #expect(lines.contains(" eval x wins by force"))
        #expect(
            lines.contains(" f7 was a mistake (gave up a win by force): the engine preferred b1d3"),
            "\(result.stdout)")

        let refused = try NanashiProcess.run(["replay", "--game", "1", "--analyse"])
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(
            refused.stderr == "nanashi: --analyse goes with a file: a server's game comes with its analysis\n"
        )
    }

    @Test func anUnreadableFileIsOneLine() throws {
        let result = try NanashiProcess.run(["replay", "/nonexistent/game.pgn"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("nanashi: cannot read /nonexistent/game.pgn: "))
    }
}
