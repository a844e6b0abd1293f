import Foundation

/// The server's one source of time: games' clocks and timers, the first-move limit, grace
/// periods, idle and login timeouts, budgets, throttles, rematch offers, and the dates it stores
/// all read it. The running server uses `SystemClock`; tests hand in one they move by hand, so
/// that no test waits for a real timer.
///
/// It keeps `ContinuousClock`'s instants, which the core's `GameClock` and the server's limits
/// are written in. Two things stay on real time on purpose: the hashing pool's measure of how
/// long a hash takes, and the wait that makes an unknown name cost as long as one. They imitate
/// the real cost of real work, which a stopped test clock would make endless.
public protocol ServerClock: Sendable {
    /// Now, on the monotonic clock.
    var now: ContinuousClock.Instant { get }
    /// Now, on the calendar: for tokens' expiry and the times stored with games and players.
    var date: Date { get }
    /// Returns once `now` has reached `deadline`; throws `CancellationError` if the task is
    /// cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension ServerClock {
    /// Sleeps for `duration` from now.
    package func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// The machine's clocks: `ContinuousClock` and the calendar.
public struct SystemClock: ServerClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }
    public var date: Date { Date() }

    /// On an event loop (`EventLoopSleep`): the games' timers, armed and cancelled move after
    /// move, cost no Dispatch timer each.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await EventLoopSleep.sleep(for: deadline - .now)
    }
}
