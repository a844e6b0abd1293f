/// The one move generator: every clone and jump of a side, written as `PackedMove`s into a buffer
/// the caller owns, with no allocation. `legalMoves()`, perft and the search all use it.
///
/// It works on raw bitboards (the side's pieces and the empty squares) so that the search can run
/// it on positions it never builds as values; `Position.generateMoves(into:)` is the same for a
/// position. The pass is not generated (a side with no clone and no jump must pass), and the
/// generator knows nothing of the game's end: ask `isGameOver` first.
public enum MoveGenerator {
    /// More moves than any position has: at most 48 clones, and at most 16 jumps per empty square
    /// with at most 24 empty squares when the side has enough pieces to use them all.
    public static let maximumMoves = 448

    /// Writes every clone (by destination, from a1 up) and then every jump (by origin, then
    /// destination) of the side holding `own`, onto `open` empty squares; returns how many.
    ///
    /// - Precondition: `moves` has room for `maximumMoves` moves.
    @inlinable
    public static func generate(own: UInt64, open: UInt64, into moves: UnsafeMutablePointer<PackedMove>)
        -> Int
    {
        var count = 0
        var clones = expand(own) & open
        while clones != 0 {
            moves[count] = MoveCode.clone(to: clones.trailingZeroBitCount)
            count &+= 1
            clones &= clones &- 1
        }
        var pieces = own
        while pieces != 0 {
            let from = pieces.trailingZeroBitCount
            var jumps = jumpRing(from) & open
            while jumps != 0 {
                moves[count] = MoveCode.jump(from: from, to: jumps.trailingZeroBitCount)
                count &+= 1
                jumps &= jumps &- 1
            }
            pieces &= pieces &- 1
        }
        return count
    }

    /// How many clones and jumps the side holding `own` has onto `open`, without listing them.
    @inlinable
    public static func count(own: UInt64, open: UInt64) -> Int {
        var count = (expand(own) & open).nonzeroBitCount
        var pieces = own
        while pieces != 0 {
            count &+= (jumpRing(pieces.trailingZeroBitCount) & open).nonzeroBitCount
            pieces &= pieces &- 1
        }
        return count
    }

    /// The squares one king step from any of `bits`, and `bits` themselves.
    @inlinable
    public static func expand(_ bits: UInt64) -> UInt64 {
        let horizontal = bits | (bits << 1 & Bitboard.notFileA) | (bits >> 1 & Bitboard.notFileG)
        return (horizontal | horizontal << 7 | horizontal >> 7) & Bitboard.boardMask
    }

    /// The squares of `open` within two steps of a piece of `pieces`: where the side holding
    /// `pieces` can clone or jump to.
    @inlinable
    public static func reach(of pieces: UInt64, open: UInt64) -> UInt64 {
        expand(expand(pieces)) & open
    }

    /// How many times a square of `targets` sits next to a piece of `pieces`: the sum, over the
    /// squares of `targets`, of their neighbours in `pieces`.
    @inlinable
    public static func neighbourCount(of pieces: UInt64, on targets: UInt64) -> Int {
        let east = pieces << 1 & Bitboard.notFileA
        let west = pieces >> 1 & Bitboard.notFileG
        var count = (east & targets).nonzeroBitCount &+ (west & targets).nonzeroBitCount
        count &+= (pieces << 7 & Bitboard.boardMask & targets).nonzeroBitCount
        count &+= (pieces >> 7 & targets).nonzeroBitCount
        count &+=
            (east << 7 & Bitboard.boardMask & targets).nonzeroBitCount
            &+ (east >> 7 & targets).nonzeroBitCount
        count &+=
            (west << 7 & Bitboard.boardMask & targets).nonzeroBitCount
            &+ (west >> 7 & targets).nonzeroBitCount
        return count
    }

    /// The squares one step from the square numbered `index` (the pieces a move there captures).
    @inlinable
    public static func cloneRing(_ index: Int) -> UInt64 {
        // Worked out rather than looked up: a few shifts cost less than reaching a global table
        // from another module, which goes through the table's lazy initialiser every time.
        let square: UInt64 = 1 << UInt64(truncatingIfNeeded: index)
        return expand(square) ^ square
    }

    /// The squares exactly two steps from the square numbered `index` (where a piece there jumps).
    @inlinable
    public static func jumpRing(_ index: Int) -> UInt64 { Rings.jump[index] }
}

extension Position {
    /// Writes the side to move's clones and jumps into `moves` (see `MoveGenerator.generate`);
    /// returns how many. Zero in a game that goes on means a forced pass.
    @inlinable
    public func generateMoves(into moves: UnsafeMutablePointer<PackedMove>) -> Int {
        MoveGenerator.generate(own: sideToMove == .x ? xBits : oBits, open: empty.rawValue, into: moves)
    }
}
