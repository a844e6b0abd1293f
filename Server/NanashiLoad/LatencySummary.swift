/// Round-trip times summed up: how many, the median, the 99th percentile and the worst, in
/// milliseconds.
public struct LatencySummary: Hashable, Sendable, Codable {
    public var count: Int
    public var p50: Double
    public var p99: Double
    public var max: Double
}

extension LatencySummary {
    /// The summary of samples in microseconds; all zero when there are none.
    public init(microseconds samples: some Sequence<UInt32>) {
        let sorted = samples.sorted()
        let milliseconds = { (value: UInt32) in Double(value) / 1000 }
        self.init(
            count: sorted.count,
            p50: Self.percentile(50, ofSorted: sorted).map(milliseconds) ?? 0,
            p99: Self.percentile(99, ofSorted: sorted).map(milliseconds) ?? 0,
            max: sorted.last.map(milliseconds) ?? 0)
    }

    /// The nearest-rank percentile: the smallest sample with at least `percent`% of the samples
    /// at or below it. `nil` when there are no samples.
    public static func percentile<T>(_ percent: Double, ofSorted sorted: [T]) -> T? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(Swift.max(rank, 1), sorted.count) - 1]
    }

    /// `p50 1.23 ms, p99 4.56 ms, max 7.89 ms`.
    public var text: String {
        "p50 \(Self.milliseconds(p50)), p99 \(Self.milliseconds(p99)), max \(Self.milliseconds(max))"
    }

    /// Milliseconds with two decimals: `1.50 ms`.
    static func milliseconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}
