extension Position {
    /// Plays `move` and returns the position after it; `self` is unchanged.
    ///
    /// - Throws: `IllegalMoveError`, holding the move, this position and the reason, when the move
    ///   cannot be played here.
    public func play(_ move: Move) throws(IllegalMoveError) -> Position {
        if let reason = illegality(of: move) {
            throw IllegalMoveError(move: move, position: self, reason: reason)
        }
        var next = self
        next.make(unchecked: move)
        return next
    }

    /// Whether `move` can be played here.
    public func isLegal(_ move: Move) -> Bool {
        illegality(of: move) == nil
    }

    /// Why `move` cannot be played here, or `nil` when it can.
    func illegality(of move: Move) -> IllegalMoveError.Reason? {
        if outcome != nil { return .gameOver }
        let own = pieces(of: sideToMove)
        switch move {
        case .pass:
            return hasMove ? .passNotAllowed : nil
        case .clone(let to):
            if let reason = unavailability(of: to) { return reason }
            return (Bitboard.cloneTargets(of: to) & own).isEmpty ? .noPieceInReach : nil
        case .jump(let from, let to):
            if !own.contains(from) { return self[from] == nil ? .noPieceOnOrigin : .notYourPiece }
            if from.distance(to: to) != 2 { return .wrongDistance }
            return unavailability(of: to)
        }
    }

    private func unavailability(of destination: Square) -> IllegalMoveError.Reason? {
        if blockers.contains(destination) { return .destinationBlocked }
        if self[destination] != nil { return .destinationOccupied }
        return nil
    }

    /// Plays `move` in place without checking it.
    ///
    /// The search's hot path. - Precondition: `move` is legal here (`isLegal(move)`); the caller
    /// guarantees it. Checked in debug builds only.
    @inlinable
    public mutating func make(unchecked move: Move) {
        assert(isLegal(move), "illegal move \(move) in \(fen)")
        let keys = side.zobristOffset
        var own = side == .x ? xBits : oBits
        var other = side == .x ? oBits : xBits
        switch move {
        case .clone(let to):
            let captured = Rings.clone[to.index] & other
            own |= 1 << UInt64(to.index) | captured
            other ^= captured
            zobrist ^= Zobrist.piece[keys + to.index]
            flipKeys(captured)
            clock = 0
        case .jump(let from, let to):
            let captured = Rings.clone[to.index] & other
            own ^= 1 << UInt64(from.index) | 1 << UInt64(to.index)
            own |= captured
            other ^= captured
            zobrist ^= Zobrist.piece[keys + from.index] ^ Zobrist.piece[keys + to.index]
            flipKeys(captured)
            clock += 1
        case .pass:
            clock += 1
        }
        if side == .x {
            xBits = own
            oBits = other
        } else {
            xBits = other
            oBits = own
            moveNumber += 1
        }
        side = side.opponent
        zobrist ^= Zobrist.oToMove
    }

    @inlinable
    mutating func flipKeys(_ captured: UInt64) {
        var remaining = captured
        while remaining != 0 {
            zobrist ^= Zobrist.flip[remaining.trailingZeroBitCount]
            remaining &= remaining &- 1
        }
    }
}
