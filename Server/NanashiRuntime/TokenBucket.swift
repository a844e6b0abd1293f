import NanashiCore

/// A token bucket: it holds at most `capacity` tokens, each request takes one, and tokens come
/// back at `refill` a second. The one rate limit of the server: a connection's message budget,
/// logins and registrations per address, failed logins per address and per name, decoy hashes.
///
/// Time is handed in (`now`), so that whoever owns the bucket reads the clock once, through its
/// settings, and tests move that clock instead of waiting.
package struct TokenBucket: Sendable {
    package let capacity: Double
    /// Tokens given back per second.
    package let refill: Double
    package private(set) var tokens: Double
    private var checked: ContinuousClock.Instant

    /// A full bucket.
    package init(capacity: Double, perSecond refill: Double, now: ContinuousClock.Instant) {
        self.capacity = max(1, capacity)
        self.refill = max(0, refill)
        tokens = self.capacity
        checked = now
    }

    /// Takes a token; returns false, taking nothing, when there is not a whole one.
    package mutating func take(now: ContinuousClock.Instant) -> Bool {
        refill(to: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Takes a token whether there is one or not, and returns what is left: below zero the
    /// bucket is in debt, and a client that keeps asking digs deeper.
    package mutating func spend(now: ContinuousClock.Instant) -> Double {
        refill(to: now)
        tokens -= 1
        return tokens
    }

    /// Gives back a token taken for a request that turned out not to count.
    package mutating func giveBack() {
        tokens = min(capacity, tokens + 1)
    }

    /// How long after `checked` the bucket is full again; one untouched that long can be
    /// forgotten, since a new bucket is full too.
    package var fullAgainAfter: Duration {
        guard refill > 0 else { return .seconds(Int64.max / 2) }
        return .seconds(max(0, capacity - tokens) / refill)
    }

    private mutating func refill(to now: ContinuousClock.Instant) {
        guard now > checked else { return }
        tokens = min(capacity, tokens + (now - checked).inSeconds * refill)
        checked = now
    }
}
