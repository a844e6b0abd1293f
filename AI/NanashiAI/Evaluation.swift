/// The static evaluation: how good a position looks to the side to move, in centi-pieces.
///
/// Material dominates: Ataxx is decided by piece count. The small positional terms only break
/// ties between equal counts.
enum Evaluation {
    static let piece = 100

    /// The side to move's edge: it will clone (a piece at least) before the other side can answer,
    /// so material counted just before its move undervalues it. Without this bonus the score
    /// swings by a piece from one iteration to the next, and aspiration windows keep failing.
    static let tempo = 50

    /// The score of a position where `own` (the side to move) and `other` hold these squares and
    /// `open` are the empty squares.
    @inline(__always)
    static func score(own: UInt64, other: UInt64, open: UInt64) -> Int {
        (own.nonzeroBitCount - other.nonzeroBitCount) * piece + tempo
    }
}
