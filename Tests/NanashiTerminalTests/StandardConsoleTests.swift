import NanashiTerminal
import Testing

@Test(
    arguments: [
        (true, false, [:], true),
        (false, false, [:], false),
        (true, true, [:], false),
        (true, false, ["NO_COLOR": "1"], false),
        (true, false, ["NO_COLOR": ""], true),
    ] as [(Bool, Bool, [String: String], Bool)])
func colorsOnlyToATerminalAndNeverWhenAskedNotTo(
    terminal: Bool, noColor: Bool, environment: [String: String], expected: Bool
) {
    #expect(
        StandardConsole.colors(toTerminal: terminal, noColor: noColor, environment: environment) == expected)
}

/// A command's failure is told in one line, whatever the lines of its message.
@Test(arguments: [
    ("bad depth 0: use 1 to 12", "nanashi: bad depth 0: use 1 to 12"),
    (
        "Error: Missing expected argument '<name>'\nHelp:  <name>  The player's name.",
        "nanashi: Error: Missing expected argument '<name>' Help:  <name>  The player's name."
    ),
    ("one\n\ntwo\n", "nanashi: one two"),
])
func aFailureIsOneLine(message: String, line: String) {
    #expect(StandardOutput.failureLine(message) == line)
}
