import Synchronization

/// A database call that did not answer in time. It may still finish later; its caller has
/// been told it failed, as for any other storage error.
package struct StorageTimedOut: Error, CustomStringConvertible {
    package let limit: Duration
    package var description: String { "the database did not answer within \(limit)" }

    package init(limit: Duration) {
        self.limit = limit
    }
}

/// Runs `operation`, or throws `StorageTimedOut` once `sleep(limit)` returns first.
///
/// The operation is not waited for then: it goes on, unheard, in the background. This is for
/// calls that may never answer: postgres-nio hands a statement to a pooled connection that
/// PostgreSQL has just closed (a restart) without ever answering it, and a move stored that
/// way would hold its game, and every move after it, for good.
package func withDeadline<T: Sendable>(
    _ limit: Duration,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let answer = FirstAnswer(continuation)
        let timer = Task {
            // Cancelled: the operation answered in time.
            guard (try? await sleep(limit)) != nil else { return }
            answer.give(.failure(StorageTimedOut(limit: limit)))
        }
        Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            timer.cancel()
            answer.give(result)
        }
    }
}

/// A continuation resumed by the first of several that answer; the others are ignored.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    package init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    package func give(_ result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
