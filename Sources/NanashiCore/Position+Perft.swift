extension Position {
    /// The number of move sequences of exactly `depth` plies from here (a forced pass is a ply;
    /// a finished game has no moves, so its subtree counts nothing beyond depth 0).
    public func perft(_ depth: Int) -> UInt64 {
        precondition(depth >= 0, "perft depth must not be negative")
        if depth == 0 { return 1 }
        if isGameOver { return 0 }
        let moves = UnsafeMutablePointer<PackedMove>.allocate(capacity: depth * MoveGenerator.maximumMoves)
        defer { moves.deallocate() }
        let (own, other) = sideToMove == .x ? (xBits, oBits) : (oBits, xBits)
        return Self.perft(
            own: own, other: other, blockers: blockerBits, clock: clock, depth: depth, moves: moves)
    }

    /// Perft on raw bitboards, for a game that is not over: the hash and the counters other than
    /// the halfmove clock play no part in the count, so they are not kept up to date.
    /// `moves` has room for `depth` lists of moves.
    static func perft(
        own: UInt64, other: UInt64, blockers: UInt64, clock: Int, depth: Int,
        moves: UnsafeMutablePointer<PackedMove>
    ) -> UInt64 {
        let open = ~(own | other | blockers) & Bitboard.boardMask
        // The last ply is counted rather than played: that is where nearly all the nodes are.
        if depth == 1 {
            let count = MoveGenerator.count(own: own, open: open)
            return count == 0 ? 1 : UInt64(count)
        }
        let count = MoveGenerator.generate(own: own, open: open, into: moves)
        if count == 0 {
            // A forced pass: the other side moves next, unless nobody can move any more.
            if MoveGenerator.expand(MoveGenerator.expand(other)) & open == 0 || clock + 1 >= 100 { return 0 }
            return perft(
                own: other, other: own, blockers: blockers, clock: clock + 1, depth: depth - 1,
                moves: moves + MoveGenerator.maximumMoves)
        }
        var total: UInt64 = 0
        for index in 0..<count {
            let move = moves[index]
            let to = MoveCode.destination(move)
            let captured = MoveGenerator.cloneRing(to) & other
            var mover = own | 1 << UInt64(to) | captured
            var nextClock = 0
            if !MoveCode.isClone(move) {
                mover ^= 1 << UInt64(MoveCode.origin(move))
                nextClock = clock + 1
            }
            let remaining = other ^ captured
            // The game is over after the move: no pieces left, the clock, or a locked board.
            let nextOpen = ~(mover | remaining | blockers) & Bitboard.boardMask
            if remaining == 0 || nextClock >= 100
                || MoveGenerator.expand(MoveGenerator.expand(mover | remaining)) & nextOpen == 0
            {
                continue
            }
            total &+= perft(
                own: remaining, other: mover, blockers: blockers, clock: nextClock, depth: depth - 1,
                moves: moves + MoveGenerator.maximumMoves)
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

extension Position {
    /// What `nanashi perft` prints, a line at a time: with `divide`, each legal move with the
    /// count of its subtree at `depth`; then for each depth from 1 to `depth`, the count and how
    /// long it took, `depth D nodes N time T ms nps R`.
    ///
    /// - Throws: `RangeError` for a `depth` outside 1 to 12 (13 would take hours), before any line.
    public func perftReport(to depth: Int, divide: Bool, line: (String) -> Void) throws(RangeError) {
        try (1...12).check(depth, "depth")
        if divide {
            for (move, nodes) in self.divide(depth) { line("\(move): \(nodes)") }
        }
        for depth in 1...depth {
            let start = ContinuousClock.now
            let nodes = perft(depth)
            let milliseconds = (ContinuousClock.now - start).inSeconds * 1000
            let nps = milliseconds > 0 ? UInt64(Double(nodes) / milliseconds * 1000) : nodes
            line("depth \(depth) nodes \(nodes) time \(Int(milliseconds.rounded())) ms nps \(nps)")
        }
    }
}
