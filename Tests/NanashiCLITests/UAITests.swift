import Foundation
import NanashiTestSupport
import Testing

/// The UAI dialogue through the real executable: lines in on standard input, replies out.
@Suite(.blocking) struct UAITests {
    /// The name of the network file in the repository, which the executable compiles in.
    static func committedNetwork() throws -> String {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let resources = root.appendingPathComponent("AI/CNetwork/Resources")
        let names = try FileManager.default.contentsOfDirectory(atPath: resources.path).filter {
            $0.hasSuffix(".nnue")
        }
        try #require(names.count == 1, "\(names)")
        return names[0]
    }

    @Test func aNetworkFileThatDoesNotLoadIsRefusedBeforeAnyLine() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("nanashi-\(UUID()).nnue")
            .path
        for command in [
            ["uai"], ["bench"], ["datagen", "--games", "1", "--out", missing + ".bin", "--eval", "nnue"],
        ] {
            let result = try NanashiProcess.run(command + ["--network", missing], input: "uai\nquit\n")
            #expect(result.status == 2)
            #expect(result.stdout == "")
            #expect(result.stderr == "nanashi: cannot read network file '\(missing)'\n")
        }
        #expect(!FileManager.default.fileExists(atPath: missing + ".bin"))
    }

    @Test func answersTheHandshakeAndShowsPositions() throws {
        let result = try NanashiProcess.run(
            ["uai"], input: "uai\nisready\nposition startpos moves g2 a1c3\nd\nperft 1\nquit\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                id name Nanashi
                id author the Nanashi authors
                option name Hash type spin default 16 min 1 max 1024
                option name Level type spin default 24 min 1 max 24
                option name Eval type combo default nnue var nnue var classic
                option name EvalFile type string default \(try Self.committedNetwork())
                option name Threads type spin default 1 min 1 max 64
                uaiok
                readyok
                7 x . . . . . o
                6 . . . . . . .
                5 . . . . . . .
                4 . . . . . . .
                3 . . o . . . .
                2 . . . . . . x
                1 . . . . . . x
                  a b c d e f g
                fen x5o/7/7/7/2o4/6x/6x x 1 2
                23

                """)
    }

    @Test func reportsBadCommandsAndKeepsGoing() throws {
        let input = """
            hello
            position startpos moves g2 g2
            position startpos moves b9
            position fen x5o/7 x 0 1
            go depth many
            setoption name Hash value lots
            position startpos moves f2

            go sideways
            d
            quit

            """
        let result = try NanashiProcess.run(["uai"], input: input)
        #expect(result.status == 0)
        var lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 16)
        // The FEN error's wording belongs to the core; only its start is ours.
        #expect(lines.remove(at: 3).hasPrefix("info string error bad FEN 'x5o/7 x 0 1': "))
        #expect(
            lines == [
                "info string error unknown command 'hello'",
                "info string error illegal move g2: the destination is occupied",
                "info string error bad move: 'b9' is not a square: expected a1 to g7",
                "info string error go depth needs a number from 1 to 64",
                "info string error Hash must be a whole number of MB from 1 to 1024, not 'lots'",
                "info string error unknown go parameter 'sideways'",
                "7 x . . . . . o", "6 . . . . . . .", "5 . . . . . . .", "4 . . . . . . .",
                "3 . . . . . . .", "2 . . . . . x .", "1 o . . . . . x", "  a b c d e f g",
                "fen x5o/7/7/7/7/5x1/o5x o 0 1",
            ])
    }

    @Test(arguments: ["x", "o"])
    func searchesToADepthAndAnswersLegally(side: String) throws {
        let position = side == "x" ? "position startpos" : "position startpos moves f2"
        let result = try NanashiProcess.run(["uai"], input: "\(position)\ngo depth 4\n")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        for (index, line) in lines.dropLast().enumerated() {
            let words = line.split(separator: " ")
            try #require(words.count >= 14)
            #expect(Array(words[0...3]) == ["info", "depth", "\(index + 1)", "score"])
            #expect(words[4] == "cp" && Int(words[5]) != nil)
            #expect(words[6] == "nodes" && words[8] == "nps" && words[10] == "time" && words[12] == "pv")
        }
        let bestMove = try #require(lines.last?.split(separator: " "))
        #expect(bestMove.count == 2 && bestMove[0] == "bestmove")
        // The first move of the last principal variation is the move played.
        #expect(lines[3].split(separator: " ")[13] == bestMove[1])
    }

    @Test func passesWhenForcedAndStopsOnQuit() throws {
        let result = try NanashiProcess.run(
            ["uai"], input: "position fen x-o4/---4/---4/7/7/7/7 x 0 1\ngo depth 5\nquit\nisready\n")
        #expect(result.status == 0)
        #expect(result.stdout == "bestmove 0000\n")
    }

    @Test func stopEndsAnInfiniteSearchWithABestMove() throws {
        let result = try NanashiProcess.run(["uai"], input: "go infinite\nisready\nstop\n")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains("readyok"))
        #expect(lines.last?.hasPrefix("bestmove ") == true)
    }
}
