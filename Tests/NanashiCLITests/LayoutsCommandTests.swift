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
}
