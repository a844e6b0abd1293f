/// A move in 16 bits, as move lists and hash tables store it (see `MoveCode`).
public typealias PackedMove = UInt16

/// The 16-bit form of a move: destination in bits 0-5, origin in bits 6-11, where origin 63 marks
/// a clone and 62 a pass. Zero (a1 to a1) is no move. Origin and destination together (the low 12
/// bits) index a table of 4096 entries, one per move.
public enum MoveCode {
    /// No move.
    public static let none: PackedMove = 0
    /// The origin field of every clone.
    public static let cloneOrigin = 63
    /// The pass.
    public static let pass: PackedMove = 62 << 6

    @inlinable
    public static func clone(to: Int) -> PackedMove { UInt16(truncatingIfNeeded: to | cloneOrigin << 6) }

    @inlinable
    public static func jump(from: Int, to: Int) -> PackedMove { UInt16(truncatingIfNeeded: to | from << 6) }

    @inlinable
    public static func isClone(_ move: PackedMove) -> Bool { Int(move >> 6) == cloneOrigin }

    /// The destination square's index.
    @inlinable
    public static func destination(_ move: PackedMove) -> Int { Int(move & 63) }

    /// The origin square's index; `cloneOrigin` for a clone.
    @inlinable
    public static func origin(_ move: PackedMove) -> Int { Int(move >> 6) }

    /// The packed form of `move`.
    @inlinable
    public static func pack(_ move: Move) -> PackedMove {
        switch move {
        case .clone(let to): return clone(to: to.index)
        case .jump(let from, let to): return jump(from: from.index, to: to.index)
        case .pass: return pass
        }
    }

    /// The move `packed` stands for.
    ///
    /// - Precondition: `packed` came from `pack` or the move generator (it is not `none`).
    @inlinable
    public static func unpack(_ packed: PackedMove) -> Move {
        if packed == pass { return .pass }
        let to = Square(unchecked: destination(packed))
        if isClone(packed) { return .clone(to: to) }
        return .jump(from: Square(unchecked: origin(packed)), to: to)
    }
}
