/// A small seeded random number generator (SplitMix64), so that a level's randomness can be
/// replayed in tests from a seed.
public final class RandomSource: @unchecked Sendable {
    private var state: UInt64

    /// A generator seeded with `seed`; the same seed gives the same numbers.
    public init(seed: UInt64) {
        state = seed
    }

    /// A generator seeded from the system's random source.
    public convenience init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// The next 64 random bits.
    public func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0...bound`.
    package func upTo(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound + 1))
    }
}
