import Foundation
import NanashiRuntime
import Synchronization

/// Writes that arrive while one is being stored wait and are then stored together, in one
/// transaction: the moves of thousands of games at once cost one commit each time the database
/// is free, rather than one each. Each caller returns once its own item is stored, as if it had
/// written alone.
///
/// With a `delay`, each batch waits that long for more items before it is written (as
/// PostgreSQL's `commit_delay` does): when writes come one at a time, far apart, a few
/// milliseconds gather several into one commit, which costs the server much less CPU per item
/// than a commit, a thread wake-up and a hop back for each. Without one, a lone write goes at once.
///
/// If a batch fails, its items are written one at a time, so that one that cannot be stored
/// (a duplicate, say) fails alone.
///
/// A batch's callers are answered together, in one closure given to `answer`: the server hands
/// it to an event loop, so that a batch wakes one loop once rather than a loop for each of its
/// callers.
package final class GroupCommit<Item: Sendable>: Sendable {
    private let state = Mutex(BatchQueue<(item: Item, done: CheckedContinuation<Void, any Error>)>())
    private let threads: WorkerThreads
    private let write: @Sendable ([Item]) throws -> Void
    /// How long a batch waits for more items before it is written.
    private let delay: Duration
    /// Blocks the writing thread for a while (the tests' waits end when the test says).
    private let pause: @Sendable (Duration) -> Void
    /// Runs the closure that answers a batch's callers.
    private let answer: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameters:
    ///   - threads: where the batches are written, one at a time.
    ///   - delay: how long each batch waits for more items before it is written (none: at once).
    ///   - pause: how the writing thread waits out `delay`; a real sleep unless told.
    ///   - answer: runs the closure that answers a batch's callers, where it likes (it must run
    ///     it); on the writing thread unless told.
    ///   - write: stores a batch in one transaction, or throws and stores none of it.
    package init(
        on threads: WorkerThreads, delay: Duration = .zero,
        pause: @escaping @Sendable (Duration) -> Void = { Thread.sleep(forTimeInterval: $0.inSeconds) },
        answer: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() },
        write: @escaping @Sendable ([Item]) throws -> Void
    ) {
        self.threads = threads
        self.delay = delay
        self.pause = pause
        self.answer = answer
        self.write = write
    }

    /// Items waiting for the next batch.
    package var waitingCount: Int { state.withLock { $0.count } }

    /// Stores `item` with whatever else is waiting; returns once it is stored.
    package func store(_ item: Item) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let start = state.withLock { $0.add((item, done)) }
            if start { threads.submit { self.drain() } }
        }
    }

    /// Writes batches until nothing waits.
    private func drain() {
        while true {
            // Blocks only this worker thread, which writes nothing else meanwhile.
            if delay > .zero { pause(delay) }
            let batch = state.withLock { $0.takeBatch() }
            if batch.isEmpty { return }
            let results: [Result<Void, any Error>]
            do {
                try write(batch.map(\.item))
                results = Array(repeating: .success(()), count: batch.count)
            } catch {
                results = batch.map { entry in Result { try write([entry.item]) } }
            }
            let waiting = batch.map(\.done)
            answer {
                for (done, result) in zip(waiting, results) { done.resume(with: result) }
            }
        }
    }
}
