import NanashiTestSupport
import Testing

@Suite(.blocking) struct LayoutsCommandTests {
    /// `nanashi layouts` draws every layout; piped, without color.
    @Test func drawsEveryLayout() throws {
        let result = try NanashiProcess.run(["layouts"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.components(separatedBy: "\n\n").count == 11)
        #expect(
            result.stdout.contains(
                """
                cross: d2 d6 b4 f4
                  x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1
                    a  b  c  d  e  f  g
                 7  x  .  .  .  .  .  o  7
                 6  .  .  .  #  .  .  .  6
                 5  .  .  .  .  .  .  .  5
                 4  .  #  .  .  .  #  .  4
                 3  .  .  .  .  .  .  .  3
                 2  .  .  .  #  .  .  .  2
                 1  o  .  .  .  .  .  x  1
                    a  b  c  d  e  f  g

                """))
    }

    /// A layout of no name, or a FEN the core refuses, stops `online` before it connects.
    @Test(arguments: [
        (["--layout", "nowhere"], "no layout is named 'nowhere'"),
        (["--challenge", "bob", "--fen", "x6/7/7/7/7/7/7 o 0 1"], "--fen: the game is over at this FEN"),
        (["--fen", "x5o/7/7/7/7/7/o5x x 0 1"], "--fen goes with --challenge or --ai"),
        // A FEN, a password and a reset token are the values of their options whatever they
        // start with (a reset token is base64url, and one in 64 starts with '-').
        (["--fen", "-5o/7/7/7/7/7/o5x x 0 1"], "--fen goes with --challenge or --ai"),
        (
            ["--name", "ann", "--password", "-pw", "--reset-token", "-token", "--register"],
            "--reset-token and --register exclude each other"
        ),
        (["--casual"], "--casual goes with --challenge"),
        // The engine's player is played with --ai, not challenged (the server refuses it).
        (
            ["--challenge", "AI level 4"],
            "'AI level 4' is the server's engine: play it with --ai 4 (unrated)"
        ),
        (["--ai", "3", "--fen", "x5o/7 x"], "--fen: bad FEN: the board must have 7 ranks"),
        (
            ["--ai", "3", "--layout", "cross", "--fen", "x5o/7/7/7/7/7/o5x x 0 1"],
            "--layout and --fen exclude"
        ),
    ])
    func onlineRefusesABadStart(arguments: [String], message: String) throws {
        let result = try NanashiProcess.run(["online", "--server", "127.0.0.1:1"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// The local commands start from a layout by name (`--layout`), blockers and all.
    @Test func localCommandsStartFromALayout() throws {
        let show = try NanashiProcess.run(["show", "--layout", "centre", "f2"])
        #expect(show.status == 0 && show.stderr.isEmpty, "\(show.stderr)")
        #expect(show.stdout.contains("\n4 . . . - . . .\n"))
        #expect(show.stdout.contains("\nfen x5o/7/7/3-3/7/5x1/o5x o 0 1\n"))
        let perft = try NanashiProcess.run(["perft", "--layout", "cross", "--depth", "1"])
        #expect(perft.status == 0 && perft.stdout.hasPrefix("depth 1 nodes 16 "), "\(perft.stdout)")
        let hotseat = try NanashiProcess.run(["hotseat", "--layout", "cross"], input: "quit\n")
        #expect(hotseat.status == 0 && hotseat.stderr.isEmpty, "\(hotseat.stderr)")
        #expect(hotseat.stdout.contains(" 6  .  .  .  #  .  .  .  6\n"), "\(hotseat.stdout)")
        let play = try NanashiProcess.run(["play", "--layout", "edges", "--level", "1"], input: "quit\n")
        #expect(play.status == 0 && play.stderr.isEmpty, "\(play.stderr)")
        #expect(play.stdout.contains(" 4  #  .  .  .  .  .  #  4\n"), "\(play.stdout)")
    }

    /// A layout of no name, or one given with a FEN, stops a local command before it starts, in
    /// the words `online` uses.
    @Test(arguments: [
        (["play", "--layout", "nowhere"], "no layout is named 'nowhere': standard, square,"),
        (["hotseat", "--layout", "Cross"], "no layout is named 'Cross'"),
        (["show", "--layout", "cross", "--fen", "startpos"], "--layout and --fen exclude each other"),
        (["perft", "--fen", "startpos", "--layout", "row"], "--layout and --fen exclude each other"),
    ])
    func localCommandsRefuseABadLayout(arguments: [String], message: String) throws {
        let result = try NanashiProcess.run(arguments, input: "quit\n")
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("nanashi: \(message)"), "\(result.stderr)")
    }
}
