import NanashiProtocol

/// Counts failed logins per name (ignoring case) and refuses further attempts for a while once
/// there are too many, the wait doubling with each failure.
actor LoginThrottle {
    private let freeFailures: Int
    private let delay: Duration
    private var failures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]
    private static let maximumDelay = Duration.seconds(15 * 60)

    init(freeFailures: Int, delay: Duration) {
        self.freeFailures = freeFailures
        self.delay = delay
    }

    /// Refuses with `rate_limited` while the name is locked out.
    func check(_ name: String) throws(ProtocolError) {
        guard let entry = failures[name.lowercased()], entry.count >= freeFailures else { return }
        let wait = lockout(after: entry.count)
        if ContinuousClock.now < entry.last + wait {
            throw ProtocolError(.rateLimited, "too many failed logins for this name; try again later")
        }
    }

    func failed(_ name: String) {
        let key = name.lowercased()
        failures[key] = ((failures[key]?.count ?? 0) + 1, .now)
        if failures.count > 100_000 { forgetOld() }
    }

    func succeeded(_ name: String) {
        failures[name.lowercased()] = nil
    }

    private func lockout(after count: Int) -> Duration {
        let doublings = min(count - freeFailures, 20)
        return min(delay * (1 << doublings), Self.maximumDelay)
    }

    /// Keeps the table bounded when many names are tried.
    private func forgetOld() {
        let now = ContinuousClock.now
        failures = failures.filter { now - $0.value.last < Self.maximumDelay }
    }
}
