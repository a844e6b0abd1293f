import Foundation

/// How a command shows itself at the terminal, as `--no-color` and `--line` say: full screen at
/// a terminal unless line by line is asked for (piped input or output is always line by line),
/// in color unless told not to.
public struct Display: Sendable {
    /// `--no-color`: no colors (`NO_COLOR` in the environment counts too).
    public var noColor: Bool
    /// `--line`: line by line even at a terminal.
    public var lineMode: Bool

    public init(noColor: Bool, lineMode: Bool) {
        self.noColor = noColor
        self.lineMode = lineMode
    }

    /// The line-by-line console, standard input and output (made once per command: it installs
    /// the Ctrl-C handler).
    public func console() -> StandardConsole {
        StandardConsole(noColor: noColor)
    }

    /// The full screen titled `title`, colored as `console` is; `nil` with `--line`, or when
    /// input or output is not a terminal.
    public func openFullScreen(colored console: StandardConsole, title: String = "nanashi")
        -> FullScreenConsole?
    {
        guard !lineMode, console.isInteractive else { return nil }
        return FullScreenConsole.open(
            color: console.color, environment: ProcessInfo.processInfo.environment, title: title)
    }

    /// Runs `body` on the full screen titled `title` (closed after), or line by line.
    public func run(title: String, _ body: (any TerminalConsole) -> Void) {
        let console = console()
        let fullScreen = openFullScreen(colored: console, title: title)
        defer { fullScreen?.close() }
        body(fullScreen ?? console)
    }
}
