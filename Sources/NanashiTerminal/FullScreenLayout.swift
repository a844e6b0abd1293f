import NanashiCore

/// Where everything goes on a full screen of `width` x `height` cells, and the frame a state
/// draws: a pure function, so tests compare frames exactly.
///
///     row 0        the title
///     rows 1-11    the board in its frame, with coordinates      | beside it, when the window
///     rows 12-     the status: counts, turn, last move,          | is wide enough: the moves,
///                  selection, clocks                             | or the notes (on the rows
///                                                                | where the left leaves room)
///     height-3     which keys do what (notes go here, above it, when there is no room beside)
///     height-2     the message line
///     height-1     the prompt and what is typed
public struct FullScreenLayout: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var glyphs: BoxGlyphs
    public var color: Bool

    /// The first row of the board's squares (rank 7, or 1 when flipped), and the column of its
    /// first square's left mark.
    static let boardRow = 3
    static let boardColumn = 4
    /// Where the panel beside the board starts, and the narrowest panel worth showing.
    static let panelColumn = 31
    static let panelMinimumWidth = 20

    public init(width: Int, height: Int, glyphs: BoxGlyphs, color: Bool) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.glyphs = glyphs
        self.color = color
    }

    /// Whether the moves (or notes) go beside the board.
    public var hasPanel: Bool { width >= Self.panelColumn + Self.panelMinimumWidth }

    /// The square under a cell of the screen (counted from 0), if any.
    public func square(column: Int, row: Int, flipped: Bool) -> Square? {
        let rankIndex = row - Self.boardRow
        let fileIndex = (column - Self.boardColumn) / 3
        guard (0..<7).contains(rankIndex), column >= Self.boardColumn, fileIndex < 7 else { return nil }
        return flipped
            ? Square(file: 6 - fileIndex, rank: rankIndex) : Square(file: fileIndex, rank: 6 - rankIndex)
    }

    /// The frame showing `state`.
    public func frame(_ state: ScreenState) -> Frame {
        var left: [String] = [state.table?.title ?? state.title]
        if let table = state.table {
            left += board(table, cursor: state.boardKeys ? state.cursor : nil)
            left += status(table)
        }
        // A message too long for its line is shown whole with the notes.
        let notes = state.notes + (Frame.width(of: state.message) > width ? [state.message] : [])
        let bottom = [state.keys.line(width: width), state.message, state.prompt + state.input]
        let top = max(0, height - bottom.count)
        // The panel's rows: those under the title whose left part leaves a space before the
        // panel's column (a long status line, a selection's targets, pushes the panel down).
        let panelRows =
            hasPanel
            ? (0..<top).filter { row in
                row > 0 && (row < left.count ? Frame.width(of: left[row]) : 0) < Self.panelColumn
            } : []
        var panel: [String] = []
        if hasPanel {
            panel = self.panel(notes: notes.flatMap { wrap($0) }, moves: state.table, room: panelRows.count)
        } else if !notes.isEmpty {
            left.append("")
            left += notes.flatMap { wrap($0) }
        }
        var lines = [String](repeating: "", count: height)
        for row in 0..<top {
            lines[row] = row < left.count ? left[row] : ""
        }
        for (line, row) in zip(panel, panelRows) {
            lines[row] += String(
                repeating: " ", count: max(0, Self.panelColumn - Frame.width(of: lines[row])))
            lines[row] += line
        }
        // When notes run past the room above the bottom lines, their end is what counts.
        if !hasPanel && left.count > top && top > 0 {
            let shown = Array(left.suffix(top))
            for row in 0..<top { lines[row] = shown[row] }
        }
        for (index, line) in bottom.enumerated() where top + index < height {
            lines[top + index] = line
        }
        lines = lines.map { Frame.clip($0, to: width) }
        let typed = Frame.width(of: state.prompt + state.input)
        return Frame(lines: lines, cursorRow: height - 1, cursorColumn: min(typed, width - 1))
    }

    /// The board in its frame, coordinates around it, the cursor's square in reverse video.
    private func board(_ table: TableView, cursor: Square?) -> [String] {
        let position = table.game.current
        let lastMove = table.game.lastMove
        let renderer = BoardRenderer(color: color)
        let plain = BoardRenderer(color: false)
        let targets = table.selected.map { Selection.targets(of: $0, in: position) } ?? (.empty, .empty)
        let files = table.flipped ? Array((0..<7).reversed()) : Array(0..<7)
        let ranks = table.flipped ? Array(0..<7) : Array((0..<7).reversed())
        let letters = renderer.paint(
            "     "
                + files.map { String(Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0)))) }
                .joined(separator: "  "), .dim)
        let rule = String(repeating: glyphs.horizontal, count: 21)
        var lines = [letters, "   " + String(glyphs.topLeft) + rule + String(glyphs.topRight)]
        for rank in ranks {
            var line = renderer.paint(" \(rank + 1) ", .dim) + String(glyphs.vertical)
            for file in files {
                let square = Square(file: file, rank: rank)!
                if square == cursor {
                    let cell = plain.cell(
                        square, in: position, lastMove: lastMove, selected: table.selected,
                        clones: targets.0, jumps: targets.1)
                    line += "\u{1B}[7m" + cell + "\u{1B}[0m"
                } else {
                    line += renderer.cell(
                        square, in: position, lastMove: lastMove, selected: table.selected,
                        clones: targets.0, jumps: targets.1)
                }
            }
            line += String(glyphs.vertical) + renderer.paint(" \(rank + 1)", .dim)
            lines.append(line)
        }
        lines.append("   " + String(glyphs.bottomLeft) + rule + String(glyphs.bottomRight))
        lines.append(letters)
        return lines
    }

    /// Today's words under the board, then the clocks or the replay's progress.
    private func status(_ table: TableView) -> [String] {
        var lines = BoardRenderer(color: color).status(
            table.game.current, lastMove: table.game.lastMove, selected: table.selected, labels: table.labels)
        if let clocks = table.clocks { lines.append(" " + clocks) }
        if let progress = table.progress { lines.append(" " + progress) }
        return lines
    }

    /// The panel beside the board, in `room` lines: the notes, then the moves' heading and the
    /// last pairs that fit under it; the notes' end alone when they take all the room.
    private func panel(notes: [String], moves table: TableView?, room: Int) -> [String] {
        guard notes.count < room - 2 else { return Array(notes.suffix(room)) }
        let spacer = notes.isEmpty ? [] : [""]
        guard let table else { return notes }
        let lines = table.game.moves.isEmpty ? ["(none yet)"] : table.moveLines
        let left = room - notes.count - spacer.count - 1
        let shown = lines.count > left ? ["..."] + lines.suffix(max(0, left - 1)) : lines
        return notes + spacer + ["moves"] + shown
    }

    /// A note cut into lines that fit where notes go, at spaces where it can.
    private func wrap(_ note: String) -> [String] {
        let room = hasPanel ? width - Self.panelColumn : width
        guard room > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in note.split(separator: " ", omittingEmptySubsequences: false) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= room {
                line += " " + word
            } else {
                lines.append(line)
                line = "  " + word
            }
            while line.count > room {
                lines.append(String(line.prefix(room)))
                line = String(line.dropFirst(room))
            }
        }
        lines.append(line)
        return lines
    }
}
