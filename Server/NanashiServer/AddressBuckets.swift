import Synchronization

/// One token bucket per client address: each request takes a token, and tokens come back at a
/// steady rate up to the bucket's capacity. Used for `login` and `register`, so that no address
/// can ask for more than its share of password hashes.
final class AddressBuckets: Sendable {
    private struct Bucket {
        var tokens: Double
        var checked: ContinuousClock.Instant
    }

    /// Tokens a new bucket holds, and the most any holds.
    let capacity: Double
    /// Tokens given back per second.
    let refill: Double
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Buckets are forgotten once full again; this many addresses trigger a sweep.
    private static let sweepAt = 100_000

    init(capacity: Double, perSecond refill: Double) {
        self.capacity = max(1, capacity)
        self.refill = max(0, refill)
    }

    /// Takes a token for `address`; returns false, taking nothing, when its bucket is empty.
    func take(_ address: String) -> Bool {
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            var bucket = buckets[address] ?? Bucket(tokens: capacity, checked: now)
            bucket.tokens = min(capacity, bucket.tokens + refill * Self.seconds(now - bucket.checked))
            bucket.checked = now
            guard bucket.tokens >= 1 else {
                buckets[address] = bucket
                return false
            }
            bucket.tokens -= 1
            buckets[address] = bucket
            if buckets.count > Self.sweepAt {
                buckets = buckets.filter {
                    $0.value.tokens + refill * Self.seconds(now - $0.value.checked) < capacity
                }
            }
            return true
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
