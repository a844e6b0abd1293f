import NanashiCore

/// The static score of a node: the network's accumulators, kept a ply at a time and brought
/// up to date only when a score needs them, or the classic evaluation.
extension Search {
    @inline(__always)
    func accumulator(ply: Int) -> UnsafeMutablePointer<Network.Lanes> {
        accumulators + ply * Network.accumulatorLanes
    }

    /// The static score for `side` to move, by the network (from the accumulator of `ply`) or
    /// by the classic evaluation.
    @inline(__always)
    func staticScore(
        side: Side, own: UInt64, other: UInt64, open: UInt64, ownReach: UInt64, otherReach: UInt64, ply: Int
    ) -> Int {
        if usesNetwork {
            if !accumulatorIsCurrent[ply] { bringAccumulatorUpToDate(ply: ply) }
            return network.score(
                accumulator(ply: ply), side: side, pieces: (own | other).nonzeroBitCount)
        }
        return Evaluation.score(
            own: own, other: other, open: open, ownReach: ownReach, otherReach: otherReach, weights: weights)
    }

    /// Fills the accumulator of `ply` from nothing for `position`.
    mutating func refreshAccumulator(_ position: Position, ply: Int) {
        guard usesNetwork else { return }
        blockers = position.blockers.rawValue
        pieces[2 * ply] = position.pieces(of: .x).rawValue
        pieces[2 * ply + 1] = position.pieces(of: .o).rawValue
        engine.network.refresh(
            accumulator(ply: ply), x: pieces[2 * ply], o: pieces[2 * ply + 1], blockers: blockers)
        accumulatorIsCurrent[ply] = true
    }

    /// Notes that the position at `ply` is `next`; its accumulator is updated only when a score
    /// needs it.
    @inline(__always)
    func deferAccumulator(_ next: Position, ply: Int) {
        pieces[2 * ply] = next.pieces(of: .x).rawValue
        pieces[2 * ply + 1] = next.pieces(of: .o).rawValue
        accumulatorIsCurrent[ply] = false
    }

    /// Updates the accumulators from the nearest current one below `ply` up to `ply`, a move at
    /// a time (the root's is always current).
    @inline(never)
    func bringAccumulatorUpToDate(ply: Int) {
        var from = ply - 1
        while !accumulatorIsCurrent[from] { from -= 1 }
        while from < ply {
            network.update(
                from: accumulator(ply: from), to: accumulator(ply: from + 1), xBefore: pieces[2 * from],
                oBefore: pieces[2 * from + 1], xAfter: pieces[2 * from + 2], oAfter: pieces[2 * from + 3],
                blockers: blockers)
            from += 1
            accumulatorIsCurrent[from] = true
        }
    }
}
