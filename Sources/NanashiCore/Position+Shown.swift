extension Position {
    /// The position as `nanashi show` prints it: the board, then `fen <FEN>`, `moves <legal
    /// moves>`, and `outcome <x|o|draw> <reason>` once the game is over, each line ending in a
    /// line break.
    public var shown: String {
        var text = diagram + "fen \(fen)\n"
        text += (["moves"] + legalMoves().map(\.description)).joined(separator: " ") + "\n"
        if let outcome { text += "outcome \(outcome)\n" }
        return text
    }
}
