/// The terminal a game is played on, as the game loop needs it: lines out, lines in, and a
/// transient status line.
public protocol TerminalConsole: AnyObject {
    /// Whether output is colored with ANSI codes.
    var color: Bool { get }
    /// Writes text as it is (add the line breaks you want).
    func write(_ text: String)
    /// Writes one line.
    func say(_ line: String)
    /// Shows `prompt` and reads one line, without its line break; `nil` at the end of input.
    func ask(_ prompt: String) -> String?
    /// Replaces the transient status line (where there is one).
    func status(_ text: String)
    /// Shows the game: the board and the lines under it written out, or redrawn in place.
    func show(_ table: TableView)
    /// Waits, where boards are redrawn in place, until the last one has been seen a moment.
    func pace()
}
