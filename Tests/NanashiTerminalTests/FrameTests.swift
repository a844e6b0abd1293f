import Testing

@testable import NanashiTerminal

@Suite struct FrameTests {
    @Test func theFirstFrameClearsAndDrawsEveryLine() {
        let frame = Frame(lines: ["ab", "", "c"], cursorRow: 2, cursorColumn: 1)
        #expect(
            frame.update(from: nil)
                == "\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;1Hab\u{1B}[0m\u{1B}[K\u{1B}[2;1H\u{1B}[0m\u{1B}[K"
                + "\u{1B}[3;1Hc\u{1B}[0m\u{1B}[K\u{1B}[3;2H")
    }

    @Test func laterFramesRewriteOnlyTheLinesThatChanged() {
        let before = Frame(lines: ["ab", "x> ", "c"], cursorRow: 1, cursorColumn: 3)
        let after = Frame(lines: ["ab", "x> f", "c"], cursorRow: 1, cursorColumn: 4)
        #expect(after.update(from: before) == "\u{1B}[2;1Hx> f\u{1B}[0m\u{1B}[K\u{1B}[2;5H")
        #expect(after.update(from: after) == "")
        let moved = Frame(lines: after.lines, cursorRow: 0, cursorColumn: 0)
        #expect(moved.update(from: after) == "\u{1B}[1;1H")
        // Another number of lines (a resize): everything again.
        let taller = Frame(lines: after.lines + [""], cursorRow: 1, cursorColumn: 4)
        #expect(taller.update(from: after).hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"))
    }

    @Test func widthsAndClippingSkipEscapeSequences() {
        let line = "\u{1B}[1;31mx\u{1B}[0m │ é"
        #expect(Frame.width(of: line) == 5)
        #expect(Frame.clip(line, to: 3) == "\u{1B}[1;31mx\u{1B}[0m │\u{1B}[0m")
        #expect(Frame.clip("abc", to: 5) == "abc")
        #expect(Frame.clip("abcdef", to: 4) == "abcd")
    }
}
