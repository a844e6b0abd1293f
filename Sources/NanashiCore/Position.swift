/// A complete game state: where the pieces and blockers are, whose turn it is, and the two counters.
///
/// `Position` is a value: playing a move returns a new position and never changes the old one.
/// Every `Position` holds a legal arrangement (no square claimed twice); the ways to make one are
/// `Position.start`, `init(fen:)`, and playing moves.
public struct Position: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline var xBits: UInt64
    @usableFromInline var oBits: UInt64
    @usableFromInline var blockerBits: UInt64

    @usableFromInline var side: Side
    @usableFromInline var clock: Int
    @usableFromInline var moveNumber: Int
    @usableFromInline var zobrist: UInt64

    /// The side whose turn it is.
    @inlinable public var sideToMove: Side { side }

    /// Plies since the last clone; the game is drawn when it reaches 100.
    @inlinable public var halfmoveClock: Int { clock }

    /// Starts at 1 and goes up after each move of `o` (passes included).
    @inlinable public var fullmoveNumber: Int { moveNumber }

    /// The Zobrist hash of the pieces, blockers and side to move (not the counters).
    ///
    /// Kept up to date by every move, rather than computed on demand, because the search reads it
    /// at every node and updating it costs a few XORs per move.
    @inlinable public var hash: UInt64 { zobrist }

    @usableFromInline
    init(x: UInt64, o: UInt64, blockers: UInt64, sideToMove: Side, halfmoveClock: Int, fullmoveNumber: Int) {
        precondition(x & o == 0 && (x | o) & blockers == 0 && (x | o | blockers) & ~Bitboard.boardMask == 0)
        xBits = x
        oBits = o
        blockerBits = blockers
        side = sideToMove
        clock = halfmoveClock
        moveNumber = fullmoveNumber
        zobrist = sideToMove == .o ? Zobrist.oToMove : 0
        for square in Bitboard(unchecked: x) { zobrist ^= Zobrist.piece[Side.x.zobristOffset + square.index] }
        for square in Bitboard(unchecked: o) { zobrist ^= Zobrist.piece[Side.o.zobristOffset + square.index] }
        for square in Bitboard(unchecked: blockers) { zobrist ^= Zobrist.blocker[square.index] }
    }

    /// The standard opening position, `x5o/7/7/7/7/7/o5x x 0 1`.
    public static let start = Position(
        x: 1 << 42 | 1 << 6, o: 1 << 48 | 1 << 0, blockers: 0, sideToMove: .x, halfmoveClock: 0,
        fullmoveNumber: 1)

    /// The squares holding pieces of `side`.
    @inlinable
    public func pieces(of side: Side) -> Bitboard {
        Bitboard(unchecked: side == .x ? xBits : oBits)
    }

    /// The squares that can never hold a piece.
    @inlinable
    public var blockers: Bitboard { Bitboard(unchecked: blockerBits) }

    /// The squares holding neither a piece nor a blocker.
    @inlinable
    public var empty: Bitboard { Bitboard(unchecked: ~(xBits | oBits | blockerBits) & Bitboard.boardMask) }

    /// The side with a piece on `square`, or `nil` when it is empty or a blocker.
    public subscript(square: Square) -> Side? {
        if xBits >> UInt64(square.index) & 1 != 0 { return .x }
        if oBits >> UInt64(square.index) & 1 != 0 { return .o }
        return nil
    }

    /// The enemy pieces that `move` would turn over: those next to its destination.
    @inlinable
    public func captures(by move: Move) -> Bitboard {
        guard let to = move.destination else { return .empty }
        return Bitboard.cloneTargets(of: to) & pieces(of: sideToMove.opponent)
    }

    /// The position in FEN.
    public var description: String { fen }
}

extension Position {
    /// The position with these pieces and blockers and `sideToMove` to move, its clocks at 0 and 1;
    /// `nil` when two of the sets overlap.
    package init?(x: Bitboard, o: Bitboard, blockers: Bitboard, sideToMove: Side) {
        guard x.rawValue & o.rawValue == 0, (x.rawValue | o.rawValue) & blockers.rawValue == 0 else {
            return nil
        }
        self.init(
            x: x.rawValue, o: o.rawValue, blockers: blockers.rawValue, sideToMove: sideToMove,
            halfmoveClock: 0, fullmoveNumber: 1)
    }
}
