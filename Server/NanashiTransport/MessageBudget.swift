import NanashiRuntime

/// A connection's budget of messages, a `TokenBucket`: every protocol line or page request
/// costs one, whether it came in the same read as others or one packet at a time; it refills at
/// `settings.messageRate` a second up to `settings.messageBurst`. Refused messages cost one too,
/// so a client that keeps flooding digs deeper, and at minus the burst it is cut off.
package struct MessageBudget {
    package enum Verdict { case within, over, cutOff }

    private var bucket: TokenBucket
    private let clock: any ServerClock

    package init(_ settings: ServerSettings) {
        clock = settings.clock
        bucket = TokenBucket(
            capacity: Double(settings.messageBurst), perSecond: settings.messageRate, now: clock.now)
    }

    /// Spends one message: within the budget, over it, or so far over that the connection is cut off.
    package mutating func spend() -> Verdict {
        let left = bucket.spend(now: clock.now)
        if left >= 0 { return .within }
        return left < -bucket.capacity ? .cutOff : .over
    }
}
