extension Position {
    /// A plain-text picture of the board, rank 7 at the top, one line per rank and a file line:
    ///
    ///     7 x . . . . . o
    ///     ...
    ///     1 o . . . . . x
    ///       a b c d e f g
    ///
    /// `x` and `o` are pieces, `-` a blocker, `.` an empty square. Ends with a line break.
    public var diagram: String {
        var text = ""
        for rank in (0..<7).reversed() {
            text += String(rank + 1)
            for file in 0..<7 {
                let square = Square(unchecked: rank * 7 + file)
                text += " "
                text += self[square]?.rawValue ?? (blockers.contains(square) ? "-" : ".")
            }
            text += "\n"
        }
        return text + "  a b c d e f g\n"
    }
}
