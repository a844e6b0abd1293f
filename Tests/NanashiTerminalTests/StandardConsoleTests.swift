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
