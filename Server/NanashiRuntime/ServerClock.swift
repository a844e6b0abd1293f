import Foundation

/// The server's one source of time: games' clocks and timers, the first-move limit, grace
/// periods, idle and login timeouts, budgets, throttles, rematch offers, and the dates it stores
/// all read it. The running server uses `SystemClock`; tests hand in one they move by hand, so
/// that no test waits for a real timer.
///
/// It keeps `ContinuousClock`'s instants, which the core's `GameClock` and the server's limits
/// are written in. A few waits stay on real time on purpose, each for its reason:
/// - imitating the real cost of real work, which a stopped test clock would make endless: the
///   hashing pool's measure of how long a hash takes (`HashingPool`), and the wait that makes an
///   unknown name cost as long as one (`Accounts`);
/// - bounding a wait on another system, which must end even when a test's clock stands still:
///   a database call that hangs (`withDeadline`'s default), a stopping node's word to the others
///   that it leaves (2 s, `Lobby.stop`), the pause before messages to other nodes are sent again
///   while PostgreSQL is away (200 ms, `PostgresCluster`);
/// - times no player sees, only their order: the gathering of a batch of messages to other nodes
///   (`PostgresCluster`, on an event loop), the 5 to 40 ms before a pairing pass that found another
///   node's pass holding its seeks looks again (`Lobby.pairBatch`), and the instant the shared
///   seeks' ages are counted back from (`Lobby.pick`: only their differences matter);
/// - a log line's duration (`Analyst`).
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
