import NanashiRuntime
import Synchronization

/// Items that arrive while a batch is being written wait, and are then written together by one
/// statement: the moves of thousands of games cost one round trip, one parse and one commit
/// each time the database is free, rather than one each. Each caller gets its own item's answer
/// once the statement that wrote it returned, as if it had written alone.
///
/// The asynchronous counterpart of `GroupCommit`, for a database reached over a connection. A
/// batch that fails fails each of its items with the same error (one statement stores all of
/// it or none of it).
package final class StatementBatches<Item: Sendable, Answer: Sendable>: Sendable {
    private let state = Mutex(BatchQueue<(item: Item, done: CheckedContinuation<Answer, any Error>)>())
    private let delay: Duration
    private let write: @Sendable ([Item]) async throws -> [Answer]

    /// - Parameters:
    ///   - delay: how long each batch waits for more items before it is written (none: at once).
    ///   - write: writes a batch in one statement and answers each item, in order, or throws and
    ///     writes none of it.
    package init(delay: Duration = .zero, write: @escaping @Sendable ([Item]) async throws -> [Answer]) {
        self.delay = delay
        self.write = write
    }

    /// Items waiting for the next batch.
    package var waitingCount: Int { state.withLock { $0.count } }

    /// Writes `item` with whatever else is waiting; returns its answer once it is written.
    package func store(_ item: Item) async throws -> Answer {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Answer, any Error>) in
            let start = state.withLock { $0.add((item, done)) }
            if start { Task { await self.drain() } }
        }
    }

    /// Writes batches until nothing waits.
    private func drain() async {
        while true {
            if delay > .zero { try? await EventLoopSleep.sleep(for: delay) }
            let batch = state.withLock { $0.takeBatch() }
            if batch.isEmpty { return }
            do {
                let answers = try await write(batch.map(\.item))
                guard answers.count == batch.count else { throw BatchAnswerMismatch() }
                for (entry, answer) in zip(batch, answers) { entry.done.resume(returning: answer) }
            } catch {
                for entry in batch { entry.done.resume(throwing: error) }
            }
        }
    }
}

/// A batch's write answered a different number of items than it was given.
package struct BatchAnswerMismatch: Error {}
