/// One of the 49 squares of the board, from `a1` to `g7`.
///
/// Squares are numbered from a1 (0) to g7 (48), rank by rank:
///
///     7 | 42 43 44 45 46 47 48
///     6 | 35 36 37 38 39 40 41
///     5 | 28 29 30 31 32 33 34
///     4 | 21 22 23 24 25 26 27
///     3 | 14 15 16 17 18 19 20
///     2 |  7  8  9 10 11 12 13
///     1 |  0  1  2  3  4  5  6
///         a  b  c  d  e  f  g
public struct Square: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number of files and of ranks.
    public static let boardSize = 7

    /// The square's number, 0 (a1) to 48 (g7).
    public let index: Int

    @inlinable
    init(unchecked index: Int) {
        self.index = index
    }

    /// The square with this number, or `nil` outside 0...48.
    public init?(index: Int) {
        guard (0..<49).contains(index) else { return nil }
        self.index = index
    }

    /// The square on this file (0 = a) and rank (0 = rank 1), or `nil` off the board.
    public init?(file: Int, rank: Int) {
        guard (0..<Self.boardSize).contains(file), (0..<Self.boardSize).contains(rank) else { return nil }
        self.index = rank * Self.boardSize + file
    }

    /// The square named like `c5` (the file letter may be upper case), or `nil` for any other text.
    public init?(_ name: some StringProtocol) {
        var bytes = name.utf8.makeIterator()
        guard let first = bytes.next(), let digit = bytes.next(), bytes.next() == nil else { return nil }
        let letter = first | 0x20  // ASCII lower case
        guard (UInt8(ascii: "a")...UInt8(ascii: "g")).contains(letter),
            (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(digit)
        else { return nil }
        self.init(
            unchecked: Int(digit - UInt8(ascii: "1")) * Self.boardSize + Int(letter - UInt8(ascii: "a")))
    }

    /// The file, 0 (a) to 6 (g).
    public var file: Int { index % Self.boardSize }

    /// The rank, 0 (rank 1) to 6 (rank 7).
    public var rank: Int { index / Self.boardSize }

    /// The square's name, like `c5`.
    public var name: String {
        String(UnicodeScalar(UInt8(ascii: "a") + UInt8(file))) + String(rank + 1)
    }

    public var description: String { name }

    /// The number of king steps between the two squares (Chebyshev distance).
    public func distance(to other: Square) -> Int {
        max(abs(file - other.file), abs(rank - other.rank))
    }

    /// All 49 squares, a1 first.
    public static let all: [Square] = (0..<49).map(Square.init(unchecked:))

    public static func < (lhs: Square, rhs: Square) -> Bool { lhs.index < rhs.index }
}
