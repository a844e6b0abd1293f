import Foundation
import NanashiSubprocess
import NanashiTestSupport
import Testing

@Suite(.blocking) struct HotseatTests {
    /// A whole game, x winning on move 9 when o's last pieces are converted; typed with both
    /// select-then-move (e1, then c1) and full moves, with mistakes and an undo on the way.
    static let game = """
        f1
        b1
        e1
        c2
        e1
        a5
        c1
        e1
        c2
        a2
        b2
        f6
        d1
        castle
        e5
        a7a4
        b2d4
        undo
        b2d4
        f5
        d4e6
        g6
        f7
        e4
        e6f4
        n

        """

    @Test func scriptedGameEndsInAWin() throws {
        let run = try NanashiProcess.run(["hotseat"], input: Self.game)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(!run.stdout.contains("\u{1B}"))
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The mistakes get one line each and the game goes on.
        #expect(lines.contains(" e1 selected: clone (+) d1 d2 e2 f2, jump (*) c1 g2 c3 d3 e3 f3 g3"))
        #expect(lines.contains("x [e1]> a5"))
        #expect(lines.contains("e1 cannot reach a5: a clone goes one step, a jump two"))
        #expect(lines.contains("x [e1]> c1"))
        #expect(lines.contains(" last move: x e1c1, converted b1 c2"))
        #expect(lines.contains("no piece of o is next to e1; to jump, select a piece or type both squares"))
        #expect(lines.contains("c2 holds a piece of x; select one of yours"))
        #expect(lines.contains("'castle' is not a move or a command (type ? for help)"))
        #expect(lines.contains("illegal move a7a4: a jump must go exactly two squares"))
        #expect(lines.contains("took back 1 move"))
        let ending = """
                a  b  c  d  e  f  g
             7  x  .  .  .  .  x  x  7
             6  .  .  .  . [.] x  x  6
             5  .  .  .  . (x)(x) .  5
             4  .  .  .  . (x)[x] .  4
             3  .  .  .  .  .  .  .  3
             2  x  .  x  .  .  .  .  2
             1  x  x  x  x  .  x  x  1
                a  b  c  d  e  f  g
             x 17 pieces   o 0 pieces
             game over
             last move: x e6f4, converted e4 e5 f5
            game over: x wins (o has no pieces left)
            final count: x 17, o 0
            play again? (y/n)> n

            """
        #expect(run.stdout.hasSuffix(ending))
    }

    @Test func resigningEndsTheGameAndAnotherCanStart() throws {
        let run = try NanashiProcess.run(["hotseat"], input: "f2\nresign\ny\nresign\nn\n")
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "o> resign\ngame over: x wins (o resigned)\nfinal count: x 3, o 2\nplay again? (y/n)> y\n"))
        #expect(
            run.stdout.hasSuffix(
                "x> resign\ngame over: o wins (x resigned)\nfinal count: x 2, o 2\nplay again? (y/n)> n\n"))
    }

    @Test func saveWritesPGNThatLoadContinues() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("my game.pgn").path

        let first = try NanashiProcess.run(["hotseat"], input: "f2\nb2\ng1e3\nsave \(file)\nquit\n")
        #expect(first.status == 0)
        #expect(first.stdout.contains("o> save \(file)\nsaved 3 moves to \(file)\n"))
        // The Date tag is the day of the save, in UTC; read it back from the file to compare the rest.
        var pgn = try String(contentsOfFile: file, encoding: .utf8)
        let date = try #require(pgn.firstMatch(of: /\[Date "(\d{4})\.(\d{2})\.(\d{2})"\]/))
        #expect(Int(date.1)! >= 2025 && (1...12).contains(Int(date.2)!) && (1...31).contains(Int(date.3)!))
        pgn = pgn.replacing(date.0, with: "[Date \"?\"]")
        #expect(
            pgn == """
                [Event "nanashi hotseat"]
                [Site "?"]
                [Date "?"]
                [Round "?"]
                [White "x"]
                [Black "o"]
                [Result "*"]
                [FEN "x5o/7/7/7/7/7/o5x x 0 1"]

                1. f2 b2 2. g1e3 *

                """)

        let second = try NanashiProcess.run(["hotseat"], input: "load \(file)\nundo\nmoves\nquit\n")
        #expect(second.status == 0)
        #expect(
            second.stdout.contains(
                """
                x> load \(file)
                loaded 3 moves from \(file)
                    a  b  c  d  e  f  g
                 7  x  .  .  .  .  .  o  7
                 6  .  .  .  .  .  .  .  6
                 5  .  .  .  .  .  .  .  5
                 4  .  .  .  .  .  .  .  4
                 3  .  .  .  . [x] .  .  3
                 2  .  o  .  .  .  x  .  2
                 1  o  .  .  .  .  . [.] 1
                    a  b  c  d  e  f  g
                 x 3 pieces   o 3 pieces
                 move 2, o to play
                 last move: x g1e3
                o> undo
                took back 1 move

                """))
    }

    @Test func badFilesAreReportedAndTheGameGoesOn() throws {
        let missing = "/nonexistent/nanashi/game.pgn"
        let run = try NanashiProcess.run(["hotseat"], input: "load \(missing)\nsave \(missing)\nf2\nquit\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("x> load \(missing)\ncannot read \(missing)"))
        #expect(run.stdout.contains("x> save \(missing)\ncannot save to \(missing)"))
        #expect(run.stdout.contains(" last move: x f2\n"))
    }

    @Test func endOfInputLeavesCleanly() throws {
        let run = try NanashiProcess.run(["hotseat"], input: "f2\nb2")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout.hasSuffix(" last move: o b2\nx> \n"))
    }

    @Test func startsFromAFENAndRefusesABadOne() throws {
        let run = try NanashiProcess.run(["hotseat", "--fen", "7/7/7/7/7/1o5/x6 x 0 1"], input: "a2\n")
        #expect(
            run.stdout.hasSuffix(
                "game over: x wins (o has no pieces left)\nfinal count: x 3, o 0\nplay again? (y/n)> \n"))
        let bad = try NanashiProcess.run(["hotseat", "--fen", "x5o/7 x"], input: "")
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(
            bad.stderr == "nanashi: bad FEN 'x5o/7 x': the board must have 7 ranks separated by '/', not 2\n")
    }

    /// Through a pseudo-terminal (`script`), line by line (`--line`; the full screen's colors are
    /// FullScreenTests'), the board is colored unless NO_COLOR or --no-color.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")),
        arguments: [
            ([] as [String], [:] as [String: String], true),
            (["--no-color"], [:], false),
            ([], ["NO_COLOR": "1"], false),
        ])
    func colorOnlyOnARealTerminal(flags: [String], environment: [String: String], colored: Bool) throws {
        let command = ([NanashiExecutable.url.path, "hotseat", "--line"] + flags).joined(separator: " ")
        var inherited = ProcessInfo.processInfo.environment
        inherited["NO_COLOR"] = nil
        let input = Pipe()
        let output = Pipe()
        let process = try Subprocess(
            "/usr/bin/script", arguments: ["-qec", command, "/dev/null"],
            environment: inherited.merging(environment) { $1 },
            stdin: input.fileHandleForReading.fileDescriptor,
            stdout: output.fileHandleForWriting.fileDescriptor, stderr: Subprocess.nullDevice)
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        let text = String(decoding: output.fileHandleForReading.restUntilEnd(), as: UTF8.self)
        process.wait()
        #expect(text.contains(" 2 pieces   "))
        #expect(text.contains("\u{1B}[1;31mx\u{1B}[0m") == colored)
        #expect(text.contains("\u{1B}[") == colored)
    }
}
