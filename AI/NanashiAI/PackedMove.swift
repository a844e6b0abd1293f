import NanashiCore

/// A move in 16 bits, as the search stores it in move lists and the transposition table:
/// destination in bits 0-5, origin in bits 6-11, where origin 63 marks a clone and 62 a pass.
/// Zero (a1 to a1) is no move.
typealias PackedMove = UInt16

enum Packed {
    static let none: PackedMove = 0
    static let cloneOrigin: UInt16 = 63
    static let pass: PackedMove = 62 << 6

    @inline(__always)
    static func clone(_ to: Int) -> PackedMove { UInt16(truncatingIfNeeded: to) | cloneOrigin << 6 }

    @inline(__always)
    static func jump(_ from: Int, _ to: Int) -> PackedMove {
        UInt16(truncatingIfNeeded: to) | UInt16(truncatingIfNeeded: from) << 6
    }

    @inline(__always)
    static func isClone(_ move: PackedMove) -> Bool { move >> 6 == cloneOrigin }

    @inline(__always)
    static func destination(_ move: PackedMove) -> Int { Int(move & 63) }

    @inline(__always)
    static func origin(_ move: PackedMove) -> Int { Int(move >> 6) }

    /// The packed form of a move of the core.
    static func pack(_ move: Move) -> PackedMove {
        switch move {
        case .clone(let to): return clone(to.index)
        case .jump(let from, let to): return jump(from.index, to.index)
        case .pass: return pass
        }
    }
}

/// Grows a set of squares (raw bits) by one king step, the set included.
@inline(__always)
func expand(_ bits: UInt64) -> UInt64 {
    let notFileA: UInt64 = 0x1_FBF7_EFDF_BF7E
    let notFileG: UInt64 = 0x0_FDFB_F7EF_DFBF
    let horizontal = bits | (bits << 1 & notFileA) | (bits >> 1 & notFileG)
    return (horizontal | horizontal << 7 | horizontal >> 7) & 0x1_FFFF_FFFF_FFFF
}
