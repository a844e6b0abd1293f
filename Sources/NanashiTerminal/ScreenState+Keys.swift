import NanashiCore

extension ScreenState {
    /// What a key did, beyond changing the state.
    public enum KeyResult: Hashable, Sendable {
        /// Nothing more: draw the state again.
        case none
        /// A line for the game, as if typed: what was typed, or the name of the square chosen.
        case line(String)
        /// The end of input (Ctrl-D on an empty line, or Ctrl-C when it reaches the program).
        case ended
        /// Draw the whole screen again.
        case redraw
    }

    /// Takes one key. With an empty prompt line, the arrows and `h j k l` move the cursor, Enter
    /// and Space choose the square under it (select a piece, play to a target), Esc drops the
    /// selection, and a click chooses the square clicked; any other character starts a typed line,
    /// which Enter sends and Esc erases. A command starting with h or l is typed in capitals
    /// (`Hint`, `Load`), or `?` for help.
    public mutating func take(_ key: Key, layout: FullScreenLayout) -> KeyResult {
        let typing = !input.isEmpty
        if !typing, let line = keyLines[key] { return .line(line) }
        switch key {
        case .up, .down, .left, .right:
            if boardKeys { moveCursor(key) }
        case .character(let character):
            if boardKeys && !typing, let arrow = Self.vi[character] {
                moveCursor(arrow)
            } else if boardKeys && !typing && character == " " {
                return .line(cursor.name)
            } else {
                input.append(character)
            }
        case .enter:
            guard !typing else { return send() }
            return boardKeys ? .line(cursor.name) : .line("")
        case .escape:
            if typing {
                input = ""
            } else if boardKeys, let selected = table?.selected {
                return .line(selected.name)
            }
        case .backspace:
            if typing { input.removeLast() }
        case .eraseLine:
            input = ""
        case .interrupt:
            return .ended
        case .endOfInput:
            if !typing { return .ended }
        case .redraw:
            return .redraw
        case .click(let button, let column, let row):
            guard boardKeys, button == 0,
                let square = layout.square(column: column - 1, row: row - 1, flipped: table?.flipped ?? false)
            else { return .none }
            cursor = square
            input = ""
            return .line(square.name)
        case .home, .end:
            break
        }
        return .none
    }

    /// The typed line, sent: the prompt line is empty again.
    private mutating func send() -> KeyResult {
        let line = input
        input = ""
        return .line(line)
    }

    private static let vi: [Character: Key] = ["h": .left, "j": .down, "k": .up, "l": .right]
}
