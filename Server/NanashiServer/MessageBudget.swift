/// A connection's budget of messages, a token bucket over time: every protocol line or page
/// request costs one, whether it came in the same read as others or one packet at a time; it
/// refills at `settings.messageRate` a second up to `settings.messageBurst`. Refused messages
/// cost one too, so a client that keeps flooding digs deeper, and at minus the burst it is cut off.
struct MessageBudget {
    enum Verdict { case within, over, cutOff }

    private let burst: Double
    private let rate: Double
    private var tokens: Double
    private var checkedAt = ContinuousClock.now

    init(_ settings: ServerSettings) {
        burst = Double(settings.messageBurst)
        rate = settings.messageRate
        tokens = burst
    }

    /// Spends one message: within the budget, over it, or so far over that the connection is cut off.
    mutating func spend() -> Verdict {
        let now = ContinuousClock.now
        let elapsed = now - checkedAt
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(burst, tokens + seconds * rate) - 1
        checkedAt = now
        if tokens >= 0 { return .within }
        return tokens < -burst ? .cutOff : .over
    }
}
