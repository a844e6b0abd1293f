import NanashiCore

/// Everything the full screen shows, as plain values: the game (when there is one), the cursor
/// over the board, the one message line, notes too long for it (help, the end of a game), the
/// prompt with what is typed after it, and a line saying which keys do what.
public struct ScreenState: Hashable, Sendable {
    public var table: TableView?
    /// The top line when the game shown has no title of its own.
    public var title: String
    /// The square the arrow keys move over.
    public var cursor: Square
    /// The last thing said (or the transient status, such as the AI thinking, while it lasts).
    public var message: String
    /// Lines shown beside the board (under it in a narrow window) until the next line is typed.
    public var notes: [String]
    /// `x> `, `x [c5]> `, `play again? (y/n)> `; empty when nothing is asked.
    public var prompt: String
    /// What has been typed after the prompt.
    public var input: String
    /// Which keys do what.
    public var keys: KeyHelp
    /// The board takes arrow keys, Enter, Space and clicks; otherwise they are left to `keyLines`.
    public var boardKeys: Bool
    /// Keys that stand for a typed line when the prompt is empty (a replay's arrows: `n`, `b`).
    public var keyLines: [Key: String]
    /// Cursor letters just typed on an empty line, which may yet begin a command.
    var cursorRun: CursorRun?

    public static let boardKeysHelp = KeyHelp(
        "arrows/hjkl move, Enter/Space select and play, Esc cancels, or type (? help)",
        short: "arrows/hjkl Enter Esc, ? help")

    public init(
        table: TableView? = nil, title: String = "nanashi", cursor: Square = Square(file: 3, rank: 3)!,
        message: String = "",
        notes: [String] = [], prompt: String = "", input: String = "", keys: KeyHelp = boardKeysHelp,
        boardKeys: Bool = true, keyLines: [Key: String] = [:]
    ) {
        self.table = table
        self.title = title
        self.cursor = cursor
        self.message = message
        self.notes = notes
        self.prompt = prompt
        self.input = input
        self.keys = keys
        self.boardKeys = boardKeys
        self.keyLines = keyLines
    }

    /// Shows `table` instead; the first game shown puts the cursor on the selected piece, or on
    /// a piece of the side to move played here, or of a side played here.
    public mutating func show(_ table: TableView?) {
        if self.table == nil, let table {
            let position = table.game.current
            let sides = [position.sideToMove, position.sideToMove.opponent].filter {
                table.keyboard.contains($0)
            }
            let pieces = sides.lazy.compactMap { position.pieces(of: $0).first(where: { _ in true }) }
            if let square = table.selected ?? pieces.first { cursor = square }
        }
        self.table = table
    }

    /// Moves the cursor one square the way an arrow points, as the board is seen; it stops at
    /// the edge.
    public mutating func moveCursor(_ key: Key) {
        let flipped = table?.flipped ?? false
        let step = flipped ? -1 : 1
        var file = cursor.file
        var rank = cursor.rank
        switch key {
        case .up: rank += step
        case .down: rank -= step
        case .right: file += step
        case .left: file -= step
        default: return
        }
        if let square = Square(file: file, rank: rank) { cursor = square }
    }
}
