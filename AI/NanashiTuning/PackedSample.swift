import NanashiCore

/// A training position in 16 bytes, as `nanashi datagen --format binary` writes it.
///
/// - Bytes 0 to 12: a 104-bit little-endian number; square `s` (a1 = 0, b1 = 1, ..., g7 = 48)
///   is its bits `2s` and `2s + 1`: 0 empty, 1 x, 2 o, 3 blocker. Bit 98 is the side to move
///   (0 for x, 1 for o); bits 99 to 103 are 0.
/// - Bytes 13 and 14: the search's score for the side to move, centi-pieces, a little-endian
///   signed 16-bit number.
/// - Byte 15: the game's result for x: 0 a loss, 1 a draw, 2 a win.
///
/// The clocks are not kept: a record reads back with 0 and 1.
public struct PackedSample: Sendable, Hashable {
    /// A record's size in bytes.
    public static let size = 16

    public let bytes: [UInt8]

    /// The record of `position`, scored `score` for its side to move, from a game won by `winner`
    /// (`nil` for a draw).
    public init(position: Position, score: Int, winner: Side?) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        func put(_ squares: Bitboard, _ code: UInt64) {
            for square in squares {
                let bit = 2 * square.index
                if bit < 64 { low |= code << bit } else { high |= code << (bit - 64) }
            }
        }
        put(position.pieces(of: .x), 1)
        put(position.pieces(of: .o), 2)
        put(position.blockers, 3)
        if position.sideToMove == .o { high |= 1 << (98 - 64) }
        let clamped = Int16(clamping: score)
        var bytes = [UInt8](repeating: 0, count: Self.size)
        for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: low >> (8 * index)) }
        for index in 0..<5 { bytes[8 + index] = UInt8(truncatingIfNeeded: high >> (8 * index)) }
        bytes[13] = UInt8(truncatingIfNeeded: UInt16(bitPattern: clamped))
        bytes[14] = UInt8(truncatingIfNeeded: UInt16(bitPattern: clamped) >> 8)
        bytes[15] = winner.map { $0 == .x ? 2 : 0 } ?? 1
        self.bytes = bytes
    }

    /// Reads a record, or says what is wrong with it.
    public init(bytes: some Collection<UInt8>) throws(TuningError) {
        guard bytes.count == Self.size else {
            throw TuningError("a record is \(Self.size) bytes, not \(bytes.count)")
        }
        let bytes = Array(bytes)
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<8 { low |= UInt64(bytes[index]) << (8 * index) }
        for index in 0..<5 { high |= UInt64(bytes[8 + index]) << (8 * index) }
        guard high >> (99 - 64) == 0 else { throw TuningError("unused bits set in a record") }
        guard bytes[15] <= 2 else { throw TuningError("bad result \(bytes[15]) in a record") }
        self.bytes = bytes
        guard Self.position(low: low, high: high) != nil else {
            throw TuningError("a record's board is not a position")
        }
    }

    /// The position, its clocks at 0 and 1.
    public var position: Position {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<8 { low |= UInt64(bytes[index]) << (8 * index) }
        for index in 0..<5 { high |= UInt64(bytes[8 + index]) << (8 * index) }
        return Self.position(low: low, high: high)!
    }

    /// The search's score for the side to move.
    public var score: Int { Int(Int16(bitPattern: UInt16(bytes[13]) | UInt16(bytes[14]) << 8)) }

    /// The game's winner, `nil` for a draw.
    public var winner: Side? { bytes[15] == 1 ? nil : bytes[15] == 2 ? .x : .o }

    private static func position(low: UInt64, high: UInt64) -> Position? {
        var sets: [UInt64] = [0, 0, 0, 0]
        for square in 0..<49 {
            let bit = 2 * square
            let code = bit < 64 ? (low >> bit) & 3 : (high >> (bit - 64)) & 3
            sets[Int(code)] |= 1 << square
        }
        return Position(
            x: Bitboard(rawValue: sets[1])!, o: Bitboard(rawValue: sets[2])!,
            blockers: Bitboard(rawValue: sets[3])!, sideToMove: (high >> (98 - 64)) & 1 == 1 ? .o : .x)
    }
}
