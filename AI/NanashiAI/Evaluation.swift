import NanashiCore

/// The static evaluation: how good a position looks to the side to move, in centi-pieces.
///
/// A sum of weighted terms (`EvaluationTerm`), counted twice: once with the opening weights and
/// once with the endgame weights, blended by the number of empty squares (the game's phase), so
/// that holes and stable pieces weigh while the board is open and material alone once it is full.
package enum Evaluation {
    /// Boards with this many empty squares or more are pure opening.
    package static let openingEmpties = 45

    /// The score of a position where `own` (the side to move) and `other` hold these squares and
    /// `open` are the empty squares; `weights` holds the opening weights of every term, in the
    /// order of `EvaluationTerm`, then the endgame weights.
    @inline(__always)
    static func score(own: UInt64, other: UInt64, open: UInt64, weights: UnsafePointer<Int32>) -> Int {
        score(
            own: own, other: other, open: open, ownReach: MoveGenerator.reach(of: own, open: open),
            otherReach: MoveGenerator.reach(of: other, open: open), weights: weights)
    }

    /// The same, given where each side can move (`MoveGenerator.reach`), which the search has
    /// worked out already.
    @inline(__always)
    static func score(
        own: UInt64, other: UInt64, open: UInt64, ownReach: UInt64, otherReach: UInt64,
        weights: UnsafePointer<Int32>
    ) -> Int {
        var opening = 0
        var endgame = 0
        @inline(__always) func add(_ term: EvaluationTerm, _ value: Int) {
            opening &+= value &* Int(weights[term.rawValue])
            endgame &+= value &* Int(weights[EvaluationTerm.count + term.rawValue])
        }
        forEachTerm(own: own, other: other, open: open, ownReach: ownReach, otherReach: otherReach, add)
        let phase = min(open.nonzeroBitCount, openingEmpties)
        return (opening &* phase &+ endgame &* (openingEmpties &- phase)) / openingEmpties
    }

    /// The score of `position` for its side to move with `weights` (outside the search's hot path).
    package static func score(of position: Position, weights: EvaluationWeights = .tuned) -> Int {
        let side = position.sideToMove
        return weights.flattened.withUnsafeBufferPointer {
            score(
                own: position.pieces(of: side).rawValue, other: position.pieces(of: side.opponent).rawValue,
                open: position.empty.rawValue, weights: $0.baseAddress!)
        }
    }

    /// The value of every term in the position (for the tuner and the tests).
    package static func terms(own: UInt64, other: UInt64, open: UInt64) -> [Int] {
        var values = [Int](repeating: 0, count: EvaluationTerm.count)
        forEachTerm(
            own: own, other: other, open: open, ownReach: MoveGenerator.reach(of: own, open: open),
            otherReach: MoveGenerator.reach(of: other, open: open)
        ) { values[$0.rawValue] = $1 }
        return values
    }

    /// How far into the endgame a board with `open` empty squares is, from 0 (opening) to 1.
    package static func endgameShare(open: UInt64) -> Double {
        Double(openingEmpties - min(open.nonzeroBitCount, openingEmpties)) / Double(openingEmpties)
    }

    /// Calls `body` with each term and its value, every one from the side to move's point of view.
    @inline(__always)
    static func forEachTerm(
        own: UInt64, other: UInt64, open: UInt64, ownReach: UInt64, otherReach: UInt64,
        _ body: (EvaluationTerm, Int) -> Void
    ) {
        body(.tempo, 1)
        body(.material, own.nonzeroBitCount - other.nonzeroBitCount)
        body(.ownHoles, MoveGenerator.neighbourCount(of: own, on: otherReach))
        body(.otherHoles, MoveGenerator.neighbourCount(of: other, on: ownReach))
        let crowded = ~MoveGenerator.expand(open)
        body(.stable, (own & crowded).nonzeroBitCount - (other & crowded).nonzeroBitCount)
        body(.corner, classBalance(0x1_0400_0000_0041, own, other))
        body(.edgeB, classBalance(0x8A_0800_0020_A2, own, other))
        body(.edgeC, classBalance(0x50_0410_1040_14, own, other))
        body(.edgeD, classBalance(0x20_0008_2000_08, own, other))
        body(.ringB2, classBalance(0x1_1000_0011_00, own, other))
        body(.ringC2, classBalance(0xA2_2008_8A00, own, other))
        body(.ringD2, classBalance(0x40_0440_0400, own, other))
        body(.innerC3, classBalance(0x1_4005_0000, own, other))
        body(.innerD3, classBalance(0x8282_0000, own, other))
        body(.centre, classBalance(0x100_0000, own, other))
    }

    @inline(__always)
    static func classBalance(_ mask: UInt64, _ own: UInt64, _ other: UInt64) -> Int {
        (own & mask).nonzeroBitCount - (other & mask).nonzeroBitCount
    }
}

/// The terms of the evaluation, in the order of the weight tables.
///
/// The square classes group the board's squares by its 8 symmetries, named after their square
/// nearest a1: the corners (a1), the edge squares b1, c1 and d1 and their images, then b2, c2, d2,
/// c3, d3, and the centre d4.
package enum EvaluationTerm: Int, CaseIterable, Sendable {
    /// 1 for the side to move: it will add a piece before the other side can answer.
    case tempo
    /// Own pieces minus the other side's.
    case material
    /// Empty squares next to own pieces that the other side can reach, each counted once per own
    /// piece it touches: what the other side threatens to capture.
    case ownHoles
    /// The same for the other side's pieces: what the side to move can capture now.
    case otherHoles
    /// Own pieces with no empty neighbour, which nothing can capture until a jump opens a square
    /// beside them, minus the other side's.
    case stable
    case corner, edgeB, edgeC, edgeD, ringB2, ringC2, ringD2, innerC3, innerD3, centre

    package static let count = allCases.count
}
