import NanashiCore

/// Draws the board as lines of text: coordinates on both axes, `x` and `o` pieces (two colors,
/// and two letters that read without color), `#` blockers, the last move and a selected piece's
/// targets marked, then the piece counts and whose turn it is.
///
///         a  b  c  d  e  f  g
///      7  x  .  .  .  .  .  o  7
///      6  .  .  .  .  .  .  .  6
///      ...
///
/// Marks around a square: `[x]` where the last move landed, `[.]` the square a jump left, `(x)` a
/// converted piece, `<x>` the selected piece; `+` an empty square it can clone to, `*` one it can
/// jump to.
public struct BoardRenderer: Sendable {
    /// Whether to color the text with ANSI escape codes.
    public var color: Bool

    public init(color: Bool = false) {
        self.color = color
    }

    /// The board and its status lines, each line ending with a line break.
    ///
    /// - Parameters:
    ///   - lastMove: the move that led to `position`, to mark.
    ///   - selected: a piece of the side to move whose targets to show.
    ///   - flipped: draw from `o`'s side (g7 at the bottom left) instead of `x`'s.
    ///   - labels: words after a side's count, like `you` or `level 3`.
    public func render(
        _ position: Position, lastMove: PlayedMove? = nil, selected: Square? = nil, flipped: Bool = false,
        labels: [Side: String] = [:]
    ) -> String {
        let targets = selected.map { Selection.targets(of: $0, in: position) } ?? (.empty, .empty)
        let files = flipped ? Array((0..<7).reversed()) : Array(0..<7)
        let ranks = flipped ? Array(0..<7) : Array((0..<7).reversed())
        let fileLine = "    " + files.map { String(fileLetter($0)) }.joined(separator: "  ")

        var lines = [paint(fileLine, .dim)]
        for rank in ranks {
            var line = paint(" \(rank + 1) ", .dim)
            for file in files {
                let square = Square(file: file, rank: rank)!
                line += cell(
                    square, in: position, lastMove: lastMove, selected: selected, clones: targets.0,
                    jumps: targets.1)
            }
            line += paint(" \(rank + 1)", .dim)
            lines.append(line)
        }
        lines.append(paint(fileLine, .dim))
        lines.append(contentsOf: status(position, lastMove: lastMove, selected: selected, labels: labels))
        return lines.map { $0 + "\n" }.joined()
    }

    /// The lines under the board: counts, turn, last move, selection.
    func status(
        _ position: Position, lastMove: PlayedMove?, selected: Square?, labels: [Side: String]
    ) -> [String] {
        let counts = Side.allCases.map { side in
            let count = position.pieces(of: side).count
            var text =
                paint(side.rawValue, side.colorStyle) + " \(count) " + (count == 1 ? "piece" : "pieces")
            if let label = labels[side] { text += " (\(label))" }
            return text
        }
        var lines = [" " + counts.joined(separator: "   ")]
        if position.isGameOver {
            lines.append(" game over")
        } else {
            let side = position.sideToMove
            lines.append(
                " move \(position.fullmoveNumber), " + paint(side.rawValue, side.colorStyle) + " to play")
        }
        if let lastMove { lines.append(" last move: " + lastMove.summary) }
        if let selected {
            let (clones, jumps) = Selection.targets(of: selected, in: position)
            if clones.isEmpty && jumps.isEmpty {
                lines.append(" \(selected) selected: it has no move")
            } else {
                lines.append(
                    " \(selected) selected: clone (+) " + names(clones) + ", jump (*) " + names(jumps))
            }
        }
        return lines
    }

    private func names(_ squares: Bitboard) -> String {
        squares.isEmpty ? "none" : squares.map(\.name).joined(separator: " ")
    }

    /// One square, three characters wide: a mark, the glyph, a mark.
    func cell(
        _ square: Square, in position: Position, lastMove: PlayedMove?, selected: Square?, clones: Bitboard,
        jumps: Bitboard
    ) -> String {
        let glyph: String
        if let side = position[square] {
            glyph = paint(side.rawValue, side.colorStyle)
        } else if position.blockers.contains(square) {
            glyph = paint("#", .dim)
        } else if clones.contains(square) {
            glyph = paint("+", .target)
        } else if jumps.contains(square) {
            glyph = paint("*", .target)
        } else {
            glyph = paint(".", .dim)
        }
        let marks: (Character, Character)
        if square == selected {
            marks = ("<", ">")
        } else if square == lastMove?.destination || square == lastMove?.origin {
            marks = ("[", "]")
        } else if lastMove?.converted.contains(square) == true {
            marks = ("(", ")")
        } else {
            return " " + glyph + " "
        }
        return paint(String(marks.0), .mark) + glyph + paint(String(marks.1), .mark)
    }

    private func fileLetter(_ file: Int) -> Character {
        Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(file)))
    }

    func paint(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m" + text + "\u{1B}[0m" : text
    }
}

/// The ANSI SGR parameters the renderer uses.
enum Style: String {
    case x = "1;31"
    case o = "1;36"
    case dim = "2"
    case mark = "1;33"
    case target = "1;32"
}

extension Side {
    var colorStyle: Style { self == .x ? .x : .o }
}
