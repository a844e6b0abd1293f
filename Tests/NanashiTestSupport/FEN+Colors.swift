/// The same position with the colors exchanged: x pieces become o, o become x, and the other
/// side is to move. Every count and verdict must be the same for it, with winners exchanged.
public func swappingColors(_ fen: String) -> String {
    let fields = fen.split(separator: " ")
    let board = String(fields[0].map { $0 == "x" ? "o" : $0 == "o" ? "x" : $0 })
    let side = fields[1] == "x" ? "o" : "x"
    return ([board, side] + fields.dropFirst(2).map(String.init)).joined(separator: " ")
}
