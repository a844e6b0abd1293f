extension Position {
    /// Every legal move: clones by destination, then jumps by origin and destination.
    ///
    /// When the game goes on but the side to move cannot move, the only legal move is `.pass`;
    /// when the game is over there are none.
    public func legalMoves() -> [Move] {
        guard !isGameOver else { return [] }
        let moves = withUnsafeTemporaryAllocation(of: PackedMove.self, capacity: MoveGenerator.maximumMoves) {
            buffer in
            let count = generateMoves(into: buffer.baseAddress!)
            return (0..<count).map { MoveCode.unpack(buffer[$0]) }
        }
        return moves.isEmpty ? [.pass] : moves
    }

    /// The number of legal moves, counted without listing them (a forced pass counts as one).
    @inlinable
    public var legalMoveCount: Int {
        guard !isGameOver else { return 0 }
        let count = movesIgnoringPass
        return count == 0 ? 1 : count
    }

    /// Whether the side to move has a clone or a jump (otherwise it must pass, or the game is over).
    @inlinable
    public var hasMove: Bool {
        MoveGenerator.reach(of: sideToMove == .x ? xBits : oBits, open: empty.rawValue) != 0
    }

    /// Clones plus jumps available to the side to move.
    @inlinable
    var movesIgnoringPass: Int {
        MoveGenerator.count(own: sideToMove == .x ? xBits : oBits, open: empty.rawValue)
    }
}
