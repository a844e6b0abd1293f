import Synchronization

/// A monotonic clock the test moves by hand, for `ServerSettings.now`.
final class ManualClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex(Duration.zero)

    func now() -> ContinuousClock.Instant { start + offset.withLock { $0 } }
    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}
