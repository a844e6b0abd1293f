/// One key press (or mouse click) at a full-screen terminal, as `KeyDecoder` reads it from the
/// bytes the terminal sends.
public enum Key: Hashable, Sendable {
    case up, down, left, right
    case home, end
    /// Return (or line feed).
    case enter
    /// Esc on its own (not the start of a longer sequence).
    case escape
    /// Backspace or Delete to the left.
    case backspace
    /// Ctrl-C (when the terminal passes it on instead of raising SIGINT).
    case interrupt
    /// Ctrl-D: the end of input.
    case endOfInput
    /// Ctrl-L: draw the whole screen again.
    case redraw
    /// Ctrl-U: erase the line typed so far.
    case eraseLine
    /// A printable character, space included.
    case character(Character)
    /// A mouse button pressed at a cell of the screen, counted from 1 (xterm's SGR mouse mode).
    case click(button: Int, column: Int, row: Int)
}
