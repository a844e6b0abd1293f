import NanashiCore

extension Outcome {
    /// The lines shown when the game is over, given the final position:
    ///
    ///     game over: x wins (o has no pieces left)
    ///     final count: x 12, o 0
    public func summary(final position: Position) -> String {
        let x = position.pieces(of: .x).count
        let o = position.pieces(of: .o).count
        return "game over: \(verdict)\nfinal count: x \(x), o \(o)\n"
    }
}
