import ArgumentParser
import NanashiTerminal

/// `--no-color` and `--line`: how a command shows itself at the terminal.
public struct DisplayOptions: ParsableArguments {
    public init() {}

    @Flag(
        name: .customLong("no-color"), help: "Plain text, no colors (NO_COLOR in the environment works too)."
    )
    var noColor = false

    @Flag(
        name: .customLong("line"),
        help:
            "Line by line even at a terminal: no full screen (piped input or output is always line by line)."
    )
    var lineMode = false

    public var display: Display { Display(noColor: noColor, lineMode: lineMode) }
}
