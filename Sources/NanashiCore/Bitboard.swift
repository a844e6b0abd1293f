/// A set of squares, one bit per square in a 64-bit word (bit `n` is `Square(index: n)`).
///
/// Only the low 49 bits are ever set. Operations that could shift a bit off the board mask it
/// back, so every `Bitboard` is a valid set of squares.
public struct Bitboard: Hashable, Sendable, Sequence, CustomStringConvertible {
    /// The bits; only the low 49 may be set.
    public var rawValue: UInt64

    @inlinable
    init(unchecked rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The set with exactly these bits, or `nil` when a bit above 48 is set.
    public init?(rawValue: UInt64) {
        guard rawValue & ~Bitboard.boardMask == 0 else { return nil }
        self.rawValue = rawValue
    }

    /// The set holding these squares.
    public init(_ squares: some Sequence<Square>) {
        rawValue = squares.reduce(0) { $0 | 1 << UInt64($1.index) }
    }

    /// The set holding one square.
    @inlinable
    public init(_ square: Square) {
        rawValue = 1 << UInt64(square.index)
    }

    @usableFromInline static let boardMask: UInt64 = (1 << 49) - 1
    @usableFromInline static let notFileA: UInt64 = 0x1_FBF7_EFDF_BF7E
    @usableFromInline static let notFileG: UInt64 = 0x0_FDFB_F7EF_DFBF

    /// No squares.
    public static let empty = Bitboard(unchecked: 0)

    /// All 49 squares.
    public static let all = Bitboard(unchecked: boardMask)

    /// How many squares the set holds.
    @inlinable
    public var count: Int { rawValue.nonzeroBitCount }

    @inlinable
    public var isEmpty: Bool { rawValue == 0 }

    @inlinable
    public func contains(_ square: Square) -> Bool {
        rawValue >> UInt64(square.index) & 1 != 0
    }

    /// The set grown by one king step in every direction (the set itself included).
    @inlinable
    public var expanded: Bitboard { Bitboard(unchecked: MoveGenerator.expand(rawValue)) }

    /// The squares one king step from `square` (where a piece there can clone to).
    @inlinable
    public static func cloneTargets(of square: Square) -> Bitboard {
        Bitboard(unchecked: Rings.clone[square.index])
    }

    /// The squares exactly two king steps from `square` (where a piece there can jump to).
    @inlinable
    public static func jumpTargets(of square: Square) -> Bitboard {
        Bitboard(unchecked: Rings.jump[square.index])
    }

    @inlinable
    public static func | (lhs: Bitboard, rhs: Bitboard) -> Bitboard {
        Bitboard(unchecked: lhs.rawValue | rhs.rawValue)
    }
    @inlinable
    public static func & (lhs: Bitboard, rhs: Bitboard) -> Bitboard {
        Bitboard(unchecked: lhs.rawValue & rhs.rawValue)
    }
    @inlinable
    public static func ^ (lhs: Bitboard, rhs: Bitboard) -> Bitboard {
        Bitboard(unchecked: lhs.rawValue ^ rhs.rawValue)
    }
    /// The squares of the board not in the set.
    @inlinable
    public static prefix func ~ (set: Bitboard) -> Bitboard { Bitboard(unchecked: ~set.rawValue & boardMask) }
    @inlinable
    public static func |= (lhs: inout Bitboard, rhs: Bitboard) { lhs.rawValue |= rhs.rawValue }
    @inlinable
    public static func &= (lhs: inout Bitboard, rhs: Bitboard) { lhs.rawValue &= rhs.rawValue }
    @inlinable
    public static func ^= (lhs: inout Bitboard, rhs: Bitboard) { lhs.rawValue ^= rhs.rawValue }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(remaining: rawValue) }

    /// Visits the squares from a1 upwards.
    public struct Iterator: IteratorProtocol {
        @usableFromInline var remaining: UInt64

        @inlinable
        init(remaining: UInt64) { self.remaining = remaining }

        @inlinable
        public mutating func next() -> Square? {
            guard remaining != 0 else { return nil }
            let index = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            return Square(unchecked: index)
        }
    }

    @inlinable
    public var underestimatedCount: Int { count }

    /// The squares' names, like `[a1, g7]`.
    public var description: String { "[" + map(\.name).joined(separator: ", ") + "]" }
}
