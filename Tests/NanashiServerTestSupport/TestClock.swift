import Foundation
import NanashiCore
import NanashiRuntime
import NanashiServer
import Synchronization

/// A server clock that stands still until the test moves it: timers armed on it wake when
/// `advance` carries it past their deadline, never on their own. The calendar moves with it.
public final class TestClock: ServerClock {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed = Duration.zero
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
    }

    private let start = ContinuousClock.now
    private let startDate: Date
    private let state = Mutex(State())

    /// A clock whose calendar starts at `date`.
    public init(date: Date = Date()) {
        startDate = date
    }

    public var now: ContinuousClock.Instant { start + state.withLock { $0.elapsed } }

    public var date: Date {
        startDate + state.withLock { $0.elapsed }.inSeconds
    }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                // Decided under the lock: a cancellation or an `advance` that comes first is seen.
                let verdict: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if start + state.elapsed >= deadline { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let verdict { continuation.resume(with: verdict) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(
                throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every timer due by then, earliest first.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.elapsed += duration
            let now = start + state.elapsed
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once a timer sleeps until `deadline`, so that the test moves the clock only after
    /// the server has armed it (it may arm it a moment after the message the test reads).
    /// Throws after 30 s of real time: the server never armed it.
    public func waitForTimer(until deadline: ContinuousClock.Instant) async throws {
        let started = ContinuousClock.now
        while !isArmed(until: deadline) {
            guard ContinuousClock.now - started < .seconds(30) else {
                throw NoTimer(deadline: deadline - start)
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Whether a timer sleeps until `deadline` now.
    public func isArmed(until deadline: ContinuousClock.Instant) -> Bool {
        state.withLock { $0.sleepers.values.contains { $0.deadline == deadline } }
    }

    /// Waits for a timer `delay` from now, then moves the clock to it.
    public func advanceWhenArmed(by delay: Duration) async throws {
        try await waitForTimer(until: now + delay)
        advance(by: delay)
    }

    /// No timer was armed for the deadline a test waited for (in time since the clock's start).
    public struct NoTimer: Error, CustomStringConvertible {
        public let deadline: Duration
        public var description: String { "no timer was armed to wake \(deadline) after the clock's start" }
    }
}
