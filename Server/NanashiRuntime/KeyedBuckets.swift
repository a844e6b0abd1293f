import NanashiCore
import Synchronization

/// A token bucket per key (a client address, an address and a name), shared by all
/// connections: `login` and `register` per address, failed logins per address and per name.
///
/// Buckets untouched long enough to be full again are forgotten without a scan: the table has
/// two generations, the one being written and the one before; every `window` (the time an empty
/// bucket takes to fill) or `maximumKeys` new keys, the older is dropped whole and the newer
/// becomes the older. A bucket in use is moved to the newer as it is touched. So every key costs
/// O(1) amortised, whatever floods the table, and the lock is never held for more than that:
/// the dropped generation is freed after the lock is released.
package final class KeyedBuckets<Key: Hashable & Sendable>: Sendable {
    package let capacity: Double
    package let refill: Double
    private let window: Duration
    private let maximumKeys: Int
    private let clock: any ServerClock
    private let state: Mutex<State>

    private struct State: Sendable {
        package var current: [Key: TokenBucket] = [:]
        package var previous: [Key: TokenBucket] = [:]
        package var rotatedAt: ContinuousClock.Instant
    }

    package init(
        capacity: Double, perSecond refill: Double, maximumKeys: Int = 100_000,
        clock: any ServerClock
    ) {
        self.capacity = max(1, capacity)
        self.refill = max(0, refill)
        self.maximumKeys = max(1, maximumKeys)
        self.clock = clock
        window = refill > 0 ? .seconds(self.capacity / self.refill) : .seconds(24 * 3600)
        state = Mutex(State(rotatedAt: clock.now))
    }

    /// Buckets that allow `count` a `period`: each holds `count` tokens and refills them all in
    /// one `period` (`loginsPerMinute` over `.seconds(60)`).
    package convenience init(
        _ count: Double, per period: Duration, maximumKeys: Int = 100_000, clock: any ServerClock
    ) {
        self.init(
            capacity: count, perSecond: count / period.inSeconds, maximumKeys: maximumKeys, clock: clock)
    }

    /// Takes a token from `key`'s bucket; returns false, taking nothing, when it is empty.
    package func take(_ key: Key) -> Bool {
        update(key) { $0.take(now: $1) }
    }

    /// Gives back a token taken from `key`'s bucket.
    package func giveBack(_ key: Key) {
        update(key) { bucket, _ in bucket.giveBack() }
    }

    /// Whether `key`'s bucket is full (as a new one is): nothing taken lately, or all given back.
    package func isFull(_ key: Key) -> Bool { tokens(key) >= capacity }

    /// The tokens in `key`'s bucket now (a new one is full), taking nothing.
    package func tokens(_ key: Key) -> Double {
        let now = clock.now
        return state.withLock { state in
            guard var bucket = state.current[key] ?? state.previous[key] else { return capacity }
            return bucket.spend(now: now) + 1
        }
    }

    /// Fills `key`'s bucket again.
    package func fill(_ key: Key) {
        update(key) { bucket, now in bucket = TokenBucket(capacity: capacity, perSecond: refill, now: now) }
    }

    /// Keys held now, in both generations (for tests).
    package var count: Int { state.withLock { $0.current.count + $0.previous.count } }

    private func update<T>(_ key: Key, _ change: (inout TokenBucket, ContinuousClock.Instant) -> T) -> T {
        let now = clock.now
        let (result, dropped) = state.withLock { state -> (T, [Key: TokenBucket]) in
            var dropped: [Key: TokenBucket] = [:]
            if now - state.rotatedAt >= window || state.current.count >= maximumKeys {
                dropped = state.previous
                state.previous = state.current
                state.current = [:]
                state.rotatedAt = now
            }
            var bucket =
                state.current[key] ?? state.previous.removeValue(forKey: key)
                ?? TokenBucket(capacity: capacity, perSecond: refill, now: now)
            let result = change(&bucket, now)
            state.current[key] = bucket
            return (result, dropped)
        }
        // `dropped` is freed here, out of the lock.
        _ = dropped.count
        return result
    }
}
