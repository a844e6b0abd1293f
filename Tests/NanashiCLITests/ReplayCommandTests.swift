import Foundation
import NanashiTestSupport
import Testing

@Suite(.blocking) struct ReplayCommandTests {
    @Test func aPipedReplayStepsThroughTheGameAndEvaluates() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "nanashi-replay-\(UUID()).pgn")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        [White "ann"]
        [Black "bob"]
        [Result "0-1"]
        [Reason "resign"]

        1. b6 f6 2. a7c5 0-1

        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try NanashiProcess.run(
            ["replay", file.path, "--depth", "1", "--no-color"], input: "n\nzz\n9\ne\nq\n")
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("ann (x) v bob (o), 0-1 (resign)\n    a  b  c  d  e  f  g\n"))
        #expect(result.stdout.contains(" last move: x b6\n ply 1 of 3\nreplay> zz\n"))
        #expect(
            result.stdout.contains(
                "replay> zz\n'zz'? n next, b back, s start, e end, a ply number, eval, q quit\n"
                    + "replay> 9\nno such position: the game has plies 0 to 3\nreplay> e\n"))
        #expect(result.stdout.hasSuffix(" last move: x a7c5\n ply 3 of 3\nreplay> q\n"))
    }

    @Test func anUnreadableFileIsOneLine() throws {
        let result = try NanashiProcess.run(["replay", "/nonexistent/game.pgn"])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("nanashi: cannot read /nonexistent/game.pgn: "))
    }
}
