/// One full screen of text: its lines, top to bottom (ANSI colors inside), and where the
/// terminal's cursor stands, both counted from 0. `update(from:)` is what the terminal is sent to
/// go from one frame to the next: only the lines that changed.
public struct Frame: Hashable, Sendable {
    public var lines: [String]
    public var cursorRow: Int
    public var cursorColumn: Int

    public init(lines: [String], cursorRow: Int, cursorColumn: Int) {
        self.lines = lines
        self.cursorRow = cursorRow
        self.cursorColumn = cursorColumn
    }

    /// The bytes that turn the screen showing `previous` into this frame: the lines that differ,
    /// each rewritten where it stands and erased to its end, then the cursor put in place. With no
    /// previous frame (the first, or after a resize), the screen is cleared and drawn whole.
    public func update(from previous: Frame?) -> String {
        var text = ""
        let whole = previous == nil || previous!.lines.count != lines.count
        if whole { text += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        for (row, line) in lines.enumerated() where whole || previous!.lines[row] != line {
            text += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[0m\u{1B}[K"
        }
        if text.isEmpty, previous?.cursorRow == cursorRow, previous?.cursorColumn == cursorColumn {
            return ""
        }
        return text + "\u{1B}[\(cursorRow + 1);\(cursorColumn + 1)H"
    }

    /// How many columns `line` takes on screen: its characters, not counting ANSI escape sequences.
    public static func width(of line: String) -> Int {
        var count = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }

    /// `line` cut to `width` columns, its escape sequences kept (a color started is ended).
    public static func clip(_ line: String, to width: Int) -> String {
        var result = ""
        var count = 0
        var inEscape = false
        var clipped = false
        for scalar in line.unicodeScalars {
            if inEscape {
                result.unicodeScalars.append(scalar)
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
                result.unicodeScalars.append(scalar)
            } else if count < width {
                count += 1
                result.unicodeScalars.append(scalar)
            } else {
                clipped = true
            }
        }
        return clipped && result.contains("\u{1B}") ? result + "\u{1B}[0m" : result
    }
}
