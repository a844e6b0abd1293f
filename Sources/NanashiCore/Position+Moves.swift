extension Position {
    /// Every legal move: clones by destination, then jumps by origin and destination.
    ///
    /// When the game goes on but the side to move cannot move, the only legal move is `.pass`;
    /// when the game is over there are none.
    public func legalMoves() -> [Move] {
        guard !isGameOver else { return [] }
        var moves: [Move] = []
        moves.reserveCapacity(64)
        let own = pieces(of: sideToMove)
        let open = empty
        for to in own.expanded & open {
            moves.append(.clone(to: to))
        }
        for from in own {
            for to in Bitboard.jumpTargets(of: from) & open {
                moves.append(.jump(from: from, to: to))
            }
        }
        if moves.isEmpty { moves.append(.pass) }
        return moves
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
        let own = Bitboard(unchecked: sideToMove == .x ? xBits : oBits)
        return !(own.expanded.expanded & empty).isEmpty
    }

    /// Clones plus jumps available to the side to move.
    @inlinable
    var movesIgnoringPass: Int {
        var own = sideToMove == .x ? xBits : oBits
        let open = empty.rawValue
        var count = (Bitboard(unchecked: own).expanded.rawValue & open).nonzeroBitCount
        while own != 0 {
            count &+= (Rings.jump[own.trailingZeroBitCount] & open).nonzeroBitCount
            own &= own &- 1
        }
        return count
    }
}
