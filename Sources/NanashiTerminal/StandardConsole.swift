import Foundation

/// The terminal the game is played on: standard input and output, whether they are a real
/// terminal, and whether to color.
///
/// On a real terminal (stdin and stdout both TTYs) prompts wait on the same line and a transient
/// status line shows the AI thinking. Otherwise every line read is echoed after its prompt, so a
/// piped game's output reads like the session it was, and nothing transient is written. Making
/// one installs the Ctrl-C handler. The one place that touches termios.
public final class StandardConsole: TerminalConsole {
    /// Both standard input and output are a terminal.
    public let isInteractive: Bool
    /// Output is colored with ANSI codes.
    public let color: Bool
    /// A transient status line is on screen and must be erased before the next output.
    private var statusShown = false

    /// - Parameter noColor: the user's `--no-color`; `NO_COLOR` in the environment counts too.
    public init(noColor: Bool) {
        isInteractive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        color = Self.colors(
            toTerminal: isatty(STDOUT_FILENO) == 1, noColor: noColor,
            environment: ProcessInfo.processInfo.environment)
        Self.installInterruptHandler()
    }

    /// Whether to color: only output to a terminal, never with `--no-color` or a non-empty
    /// `NO_COLOR` in the environment (no-color.org).
    public static func colors(toTerminal: Bool, noColor: Bool, environment: [String: String]) -> Bool {
        toTerminal && !noColor && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Writes text as it is (add the line breaks you want).
    public func write(_ text: String) {
        clearStatus()
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes one line.
    public func say(_ line: String) {
        write(line + "\n")
    }

    /// Shows `prompt` and reads one line, without its line break; `nil` at the end of input.
    public func ask(_ prompt: String) -> String? {
        write(prompt)
        guard let line = readLine(strippingNewline: true) else {
            write("\n")
            return nil
        }
        if !isInteractive { write(line + "\n") }
        return line
    }

    /// Reads a secret (a password) without showing it: on a terminal the typed characters are
    /// not echoed; piped, the line is read and never written back.
    public func askSecret(_ prompt: String) -> String? {
        write(prompt)
        var saved = termios()
        let hide = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &saved) == 0
        if hide {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            // Ctrl-C while the password is typed must not leave the terminal silent.
            echoToRestore = saved
            restoreEchoOnInterrupt = true
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if hide {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            restoreEchoOnInterrupt = false
        }
        write("\n")
        return line
    }

    /// Rewrites the line above the cursor and puts the cursor back where it was, so what the
    /// player is typing on the current line stays (a real terminal only).
    public func rewriteLineAbove(_ text: String) {
        guard isInteractive else { return }
        FileHandle.standardOutput.write(Data(("\u{1B}7\u{1B}[1A\r\u{1B}[2K" + text + "\u{1B}8").utf8))
    }

    /// Replaces the transient status line (a real terminal only; elsewhere nothing is written).
    public func status(_ text: String) {
        guard isInteractive else { return }
        FileHandle.standardOutput.write(Data(("\r\u{1B}[2K" + text).utf8))
        statusShown = true
    }

    /// Erases the transient status line, if one is shown.
    public func clearStatus() {
        guard statusShown else { return }
        statusShown = false
        FileHandle.standardOutput.write(Data("\r\u{1B}[2K".utf8))
    }

    /// Ctrl-C leaves at once, resetting colors and leaving the cursor on a fresh line, whatever is
    /// running (the AI's search included). The terminal's own modes are changed only while a
    /// password is typed (echo off), and then restored.
    private static func installInterruptHandler() {
        resetOnInterrupt = isatty(STDOUT_FILENO) == 1
        signal(SIGINT, leaveOnInterrupt)
    }
}

/// Whether the interrupt handler writes escape codes (only to a terminal).
nonisolated(unsafe) private var resetOnInterrupt = false
/// The terminal's modes from before a password prompt turned echo off, and whether they are
/// still to be restored.
nonisolated(unsafe) private var echoToRestore = termios()
nonisolated(unsafe) private var restoreEchoOnInterrupt = false

/// The SIGINT handler: only async-signal-safe calls here, tcsetattr(3), write(2) and _exit(2).
private func leaveOnInterrupt(_ signal: Int32) {
    if restoreEchoOnInterrupt { tcsetattr(STDIN_FILENO, TCSANOW, &echoToRestore) }
    let text: StaticString = resetOnInterrupt ? "\u{1B}[0m\r\u{1B}[2K\n" : "\n"
    _ = write(STDOUT_FILENO, text.utf8Start, text.utf8CodeUnitCount)
    _exit(130)
}
