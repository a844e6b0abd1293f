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
    /// which Enter sends and Esc erases. Cursor letters followed by a letter that could continue
    /// them into a command (`hint`, `help`, `load`) become the start of the line instead, the
    /// cursor back where it was; should the line then stop reading as that command (`he4`: a
    /// move left, then `e4`), the letters move the cursor again.
    public mutating func take(_ key: Key, layout: FullScreenLayout) -> KeyResult {
        let typing = !input.isEmpty
        if !typing, let line = keyLines[key] { return .line(line) }
        switch key {
        case .character(let character) where boardKeys && !typing && Self.vi[character] != nil:
            if cursorRun == nil { cursorRun = CursorRun(letters: "", before: cursor) }
            cursorRun?.letters.append(character)
        case .character(let character) where typing || character != " ":
            break  // the run, if any, is read once the character is on the line
        case .backspace where input.count > 1, .redraw:
            break
        default:
            cursorRun = nil
        }
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
                readCursorRun()
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

    /// After a character typed: whether cursor letters just before it begin a command with it
    /// (then they join the line and the cursor goes back), or began one and the line no longer
    /// reads as it (then they move the cursor again, and leave the line).
    private mutating func readCursorRun() {
        guard var run = cursorRun else { return }
        if run.after == nil {
            let line = run.letters + input
            guard Self.couldBeCommand(line) else {
                cursorRun = nil
                return
            }
            run.after = cursor
            cursor = run.before
            input = line
            cursorRun = run
        } else if !Self.couldBeCommand(input), let after = run.after {
            input.removeFirst(run.letters.count)
            cursor = after
            cursorRun = nil
        }
    }

    /// Whether `line` is the start of a command whose word begins with a cursor letter: the word
    /// so far, or the whole word and what follows it.
    private static func couldBeCommand(_ line: String) -> Bool {
        let lowered = line.lowercased()
        guard let space = lowered.firstIndex(of: " ") else {
            return Command.cursorLetterWords.contains { $0.hasPrefix(lowered) }
        }
        return Command.cursorLetterWords.contains(String(lowered[..<space]))
    }
}

/// Cursor letters (`h j k l`) typed on an empty line, kept in case they begin a command.
struct CursorRun: Hashable, Sendable {
    /// The letters, in the order typed.
    var letters: String
    /// Where the cursor was before the first of them.
    var before: Square
    /// Where they had moved it, once they became the start of the typed line.
    var after: Square?
}
