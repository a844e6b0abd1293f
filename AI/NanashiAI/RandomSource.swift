import NanashiCore

/// The core's seeded generator (SplitMix64) as a shared object, so that a level's randomness can be
/// replayed in tests from a seed.
public final class RandomSource: @unchecked Sendable {
    private var generator: SplitMix64

    /// A generator seeded with `seed`; the same seed gives the same numbers.
    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// A generator seeded from the system's random source.
    public convenience init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// The next 64 random bits.
    public func next() -> UInt64 { generator.next() }

    /// A number in `0...bound`.
    package func upTo(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(next() % UInt64(bound + 1))
    }
}
