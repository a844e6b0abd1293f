import Foundation
import NanashiSubprocess
import NanashiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `nanashi` at a real (pseudo-)terminal: full screen, keys, and the terminal given back.
@Suite(.blocking) struct FullScreenTests {
    static let enter = "\u{1B}[?1049h\u{1B}[?1000h\u{1B}[?1006h"
    static let leave = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Selects g1 with Enter (the cursor starts on a piece of the side to move), walks the cursor
    /// to e3 with the arrow keys and plays the jump with Enter; then o's move and `quit` are typed
    /// at once (the keys after the first line wait for the next).
    @Test func arrowKeysPlayAMoveAndTheTerminalIsGivenBack() throws {
        let terminal = try PseudoTerminal(
            ["hotseat"], environment: ["NO_COLOR": "1", "LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""])
        // Read before the program starts: it may already be in full screen by now.
        let before = terminal.initialModes
        #expect(terminal.waitFor("x> "))
        #expect(terminal.output.hasPrefix(Self.enter))
        #expect(!sameModes(terminal.modes, before))
        terminal.type("\r")
        #expect(terminal.waitFor(" g1 selected: clone (+) f1 f2 g2"))
        let selected = terminal.output.count
        terminal.type("\u{1B}[D\u{1B}[D")
        terminal.type("\u{1B}[A")
        terminal.type("\u{1B}")
        terminal.type("[A\r")
        #expect(terminal.waitFor(" last move: x g1e3", after: selected))
        #expect(terminal.output.contains("1. g1e3"))
        #expect(terminal.waitFor("o> ", after: selected))
        terminal.type("f6\rquit\r")
        #expect(terminal.finish() == 0)
        #expect(terminal.output.contains(" last move: o f6"))
        #expect(sameModes(terminal.modes, before))
        let output = terminal.output
        let left = try #require(output.range(of: Self.leave))
        // After the full screen, the last board stays on the main screen.
        #expect(output[left.upperBound...].contains(" 6  .  .  .  .  . [o] .  6\r\n"))
        #expect(output[left.upperBound...].contains(" 3  .  .  .  .  x  .  .  3\r\n"))
        // The board was drawn once in full, then only its changed lines.
        #expect(output.components(separatedBy: "\u{1B}[2J").count == 2)
        // NO_COLOR: no colors, only the cursor's square in reverse video.
        #expect(!output.contains("\u{1B}[1;31m") && !output.contains("\u{1B}[2m"))
        #expect(output.contains("\u{1B}[7m"))
    }

    /// Ctrl-C leaves at once with the shell's code for it, the terminal given back.
    @Test func interruptGivesTheTerminalBack() throws {
        let terminal = try PseudoTerminal(
            ["hotseat"], environment: ["LANG": "C", "LC_ALL": "", "LC_CTYPE": ""])
        // Read before the program starts: it may already be in full screen by now.
        let before = terminal.initialModes
        #expect(terminal.waitFor("x> "))
        // ASCII lines without a UTF-8 locale; colors.
        #expect(terminal.output.contains("   +---------------------+"))
        #expect(terminal.output.contains("\u{1B}[1;31mx\u{1B}[0m"))
        terminal.process.send(SIGINT)
        #expect(terminal.finish() == 130)
        #expect(terminal.output.hasSuffix(Self.leave))
        #expect(sameModes(terminal.modes, before))
    }

    /// Ctrl-D on an empty line is the end of input; `--line` keeps the line mode at a terminal.
    @Test func endOfInputAndLineMode() throws {
        let terminal = try PseudoTerminal(["hotseat"])
        #expect(terminal.waitFor("x> "))
        terminal.type("\u{04}")
        #expect(terminal.finish() == 0)
        #expect(terminal.output.contains(Self.leave))

        let lines = try PseudoTerminal(["hotseat", "--line", "--no-color"])
        #expect(lines.waitFor("x> "))
        lines.type("f2\n")
        #expect(lines.waitFor(" last move: x f2"))
        lines.type("quit\n")
        #expect(lines.finish() == 0)
        #expect(!lines.output.contains("\u{1B}["))
    }
}
