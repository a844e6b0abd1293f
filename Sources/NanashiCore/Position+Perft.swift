extension Position {
    /// The number of move sequences of exactly `depth` plies from here (a forced pass is a ply;
    /// a finished game has no moves, so its subtree counts nothing beyond depth 0).
    public func perft(_ depth: Int) -> UInt64 {
        precondition(depth >= 0, "perft depth must not be negative")
        if depth == 0 { return 1 }
        if isGameOver { return 0 }
        var own = sideToMove == .x ? xBits : oBits
        let open = empty.rawValue
        // The last ply is counted rather than played: that is where nearly all the nodes are.
        if depth == 1 {
            let count = movesIgnoringPass
            return count == 0 ? 1 : UInt64(count)
        }
        if (Bitboard(unchecked: own).expanded.expanded.rawValue & open) == 0 {
            var next = self
            next.make(unchecked: .pass)
            return next.perft(depth - 1)
        }

        var total: UInt64 = 0
        var clones = Bitboard(unchecked: own).expanded.rawValue & open
        while clones != 0 {
            var next = self
            next.make(unchecked: .clone(to: Square(unchecked: clones.trailingZeroBitCount)))
            total &+= next.perft(depth - 1)
            clones &= clones &- 1
        }
        while own != 0 {
            let from = Square(unchecked: own.trailingZeroBitCount)
            var jumps = Rings.jump[from.index] & open
            while jumps != 0 {
                var next = self
                next.make(unchecked: .jump(from: from, to: Square(unchecked: jumps.trailingZeroBitCount)))
                total &+= next.perft(depth - 1)
                jumps &= jumps &- 1
            }
            own &= own &- 1
        }
        return total
    }

    /// Perft split by the first move: each legal move here with the count of its subtree of
    /// `depth - 1` further plies, in `legalMoves()` order.
    public func divide(_ depth: Int) -> [(move: Move, nodes: UInt64)] {
        precondition(depth >= 1, "divide needs a depth of at least 1")
        return legalMoves().map { move in
            var next = self
            next.make(unchecked: move)
            return (move, next.perft(depth - 1))
        }
    }
}
