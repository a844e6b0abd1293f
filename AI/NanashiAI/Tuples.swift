/// The network's inputs: the 36 windows of 2x2 squares of the board, each in one of 4^4 states.
///
/// Window `w` has its lower left square on file `w % 6`, rank `w / 6`. Its state sums its
/// squares' codes (0 empty, 1 the perspective's own piece, 2 the other side's, 3 a blocker)
/// times 1 (lower left), 4 (lower right), 16 (upper left) and 64 (upper right), as
/// `tools/nnue/train.py` numbers them.
enum Tuples {
    static let windows = 36
    static let states = 256

    /// For each square, the windows that hold it, one bit per window.
    static let windowsOfSquare: [UInt64] = (0..<49).map { square in
        let (rank, file) = square.quotientAndRemainder(dividingBy: 7)
        var mask: UInt64 = 0
        for windowRank in max(0, rank - 1)...min(5, rank) {
            for windowFile in max(0, file - 1)...min(5, file) { mask |= 1 << (windowRank * 6 + windowFile) }
        }
        return mask
    }

    /// The state of `window` from x's perspective and from o's.
    @inline(__always)
    static func states(window: Int, x: UInt64, o: UInt64, blockers: UInt64) -> (x: Int, o: Int) {
        let corner = UInt64(truncatingIfNeeded: window / 6 * 7 + window % 6)
        // The window's four squares of a board as base-4 digits: 1, 4, 16 and 64 for each one set.
        @inline(__always) func digits(_ bits: UInt64) -> Int {
            let shifted = bits >> corner
            let spread = shifted & 1 | (shifted & 2) << 1 | (shifted & 0x80) >> 3 | (shifted & 0x100) >> 2
            return Int(truncatingIfNeeded: spread)
        }
        let xDigits = digits(x)
        let oDigits = digits(o)
        let blocked = 3 &* digits(blockers)
        return (xDigits &+ 2 &* oDigits &+ blocked, oDigits &+ 2 &* xDigits &+ blocked)
    }
}
