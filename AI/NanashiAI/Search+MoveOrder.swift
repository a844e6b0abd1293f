import CSearchMemory
import NanashiCore

/// The order a node tries its moves in, and what a cutoff teaches it (killers, history).
extension Search {
    static let tableMoveScore = Int32.max
    static let killerBonus: Int32 = 1 << 21

    /// Orders by what a move gains: the table move first, at the root the moves by the nodes they
    /// took in the iterations before, then pieces won (captures, plus one for
    /// a clone, minus the own pieces a jump leaves exposed around its origin), killers among the
    /// moves that win nothing, and history to break ties.
    @inline(__always)
    func scoreMoves(
        _ moves: UnsafeMutablePointer<UInt16>, _ scores: UnsafeMutablePointer<Int32>, count: Int,
        own: UInt64, other: UInt64, tableMove: PackedMove, ply: Int
    ) {
        let killer1 = killers[ply * 2]
        let killer2 = killers[ply * 2 + 1]
        for index in 0..<count {
            let packed = moves[index]
            if packed == tableMove {
                scores[index] = Self.tableMoveScore
                continue
            }
            let to = MoveCode.destination(packed)
            var gain = (MoveGenerator.cloneRing(to) & other).nonzeroBitCount * 4
            if MoveCode.isClone(packed) {
                gain += 4
            } else {
                gain -= (MoveGenerator.cloneRing(MoveCode.origin(packed)) & own).nonzeroBitCount
            }
            var score = Int32(gain) << 22 + min(history[Int(packed & 4095)], Self.killerBonus - 1)
            if packed == killer1 || packed == killer2 { score += Self.killerBonus }
            scores[index] = score
        }
        // Once a node, not once a move: only the root orders by nodes.
        guard ply == 0 else { return }
        for index in 0..<count where moves[index] != tableMove {
            if let score = Self.searchedRootMoveScore(nodes: rootNodes[Int(moves[index] & 4095)]) {
                scores[index] = score
            }
        }
    }

    /// A root move's score once an iteration has searched it: above every move but the table's,
    /// ordered by the nodes its subtree took (the more, the harder it was to refute; a quarter of
    /// them, so that the cap is reached only past 4 G nodes); nil for a move not searched yet.
    @inline(__always)
    static func searchedRootMoveScore(nodes: UInt64) -> Int32? {
        guard nodes > 0 else { return nil }
        return searchedRootMoveBase + Int32(min(nodes >> 2, UInt64(searchedRootMoveBase - 2)))
    }

    /// Above any score by gain, killer and history (36 << 22 at most, plus less than 2 << 21).
    static let searchedRootMoveBase: Int32 = 1 << 30

    /// Moves the best-scored move at or after `from` to `from` (selection sort: most nodes cut off
    /// after a few moves, so sorting the whole list would be wasted).
    @inline(__always)
    func pickBest(
        _ moves: UnsafeMutablePointer<UInt16>, _ scores: UnsafeMutablePointer<Int32>, from: Int, count: Int
    ) {
        let bestIndex = Int(nanashi_best_index(scores, Int32(from), Int32(count)))
        if bestIndex != from {
            let move = moves[from]
            moves[from] = moves[bestIndex]
            moves[bestIndex] = move
            let bestScore = scores[bestIndex]
            scores[bestIndex] = scores[from]
            scores[from] = bestScore
        }
    }

    /// The most a history entry can hold, either way.
    static let historyLimit: Int32 = 16_384

    /// Rewards the move that cut off and punishes the moves ordered before it (the first `count` of
    /// `tried`, but the table move; late move pruning may have skipped some), with gravity: an
    /// entry moves by the bonus scaled down the nearer it already is to `historyLimit`, so it
    /// stays within it and recent cutoffs count most.
    @inline(__always)
    func rememberCutoff(
        _ packed: PackedMove, tried: UnsafeMutablePointer<UInt16>, count: Int, ply: Int, depth: Int,
        tableMove: PackedMove
    ) {
        if packed != tableMove && killers[ply * 2] != packed {
            killers[ply * 2 + 1] = killers[ply * 2]
            killers[ply * 2] = packed
        }
        let bonus = parameters.historyBonus(depth: depth)
        func add(_ amount: Int32, to move: PackedMove) {
            let slot = history + Int(move & 4095)
            slot.pointee += amount - slot.pointee * abs(amount) / Self.historyLimit
        }
        add(bonus, to: packed)
        for index in 0..<count where tried[index] != tableMove {
            add(-bonus, to: tried[index])
        }
    }
}
