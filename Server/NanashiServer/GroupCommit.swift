import Foundation
import NIOCore
import NIOPosix
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
/// A caller that stores from an event loop's thread (a game resumed there, the connection that
/// read its move) is resumed on that loop: the callers of a batch go back to their loops in
/// one hand-over each, and their replies are written from the loop of the mover's connection.
final class GroupCommit<Item: Sendable>: Sendable {
    private struct State {
        var waiting: [Waiting] = []
        var writing = false
    }

    private struct Waiting {
        let item: Item
        let done: CheckedContinuation<Void, any Error>
        /// The event loop the caller stored from, if it did from one.
        let home: (any EventLoop)?
    }

    private let state = Mutex(State())
    private let threads: WorkerThreads
    private let write: @Sendable ([Item]) throws -> Void
    /// How long a batch waits for more items before it is written.
    private let delay: Duration
    /// Blocks the writing thread for a while (the tests' waits end when the test says).
    private let pause: @Sendable (Duration) -> Void
    /// The event loop whose thread `store` is called on, if any.
    private let currentLoop: @Sendable () -> (any EventLoop)?

    /// - Parameters:
    ///   - threads: where the batches are written, one at a time.
    ///   - delay: how long each batch waits for more items before it is written (none: at once).
    ///   - pause: how the writing thread waits out `delay`; a real sleep unless told.
    ///   - currentLoop: the event loop the caller of `store` runs on, if any; SwiftNIO's unless told.
    ///   - write: stores a batch in one transaction, or throws and stores none of it.
    init(
        on threads: WorkerThreads, delay: Duration = .zero,
        pause: @escaping @Sendable (Duration) -> Void = { Thread.sleep(forTimeInterval: $0.inSeconds) },
        currentLoop: @escaping @Sendable () -> (any EventLoop)? = {
            MultiThreadedEventLoopGroup.currentEventLoop
        },
        write: @escaping @Sendable ([Item]) throws -> Void
    ) {
        self.threads = threads
        self.delay = delay
        self.pause = pause
        self.currentLoop = currentLoop
        self.write = write
    }

    /// Items waiting for the next batch.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Stores `item` with whatever else is waiting; returns once it is stored.
    func store(_ item: Item) async throws {
        let home = currentLoop()
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let start = state.withLock { state in
                state.waiting.append(Waiting(item: item, done: done, home: home))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            if start { threads.submit { self.drain() } }
        }
    }

    /// Writes batches until nothing waits.
    private func drain() {
        while true {
            // Blocks only this worker thread, which writes nothing else meanwhile.
            if delay > .zero { pause(delay) }
            let batch = state.withLock { state in
                let batch = state.waiting
                state.waiting.removeAll(keepingCapacity: true)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                try write(batch.map(\.item))
                Self.resume(batch)
            } catch {
                for entry in batch {
                    do {
                        try write([entry.item])
                        entry.done.resume()
                    } catch {
                        entry.done.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// Resumes the callers of a batch written: each on the loop it stored from, those of one
    /// loop in one task there; the others at once.
    private static func resume(_ batch: [Waiting]) {
        var homes: [(loop: any EventLoop, callers: [CheckedContinuation<Void, any Error>])] = []
        for entry in batch {
            guard let home = entry.home else {
                entry.done.resume()
                continue
            }
            if let index = homes.firstIndex(where: { $0.loop === home }) {
                homes[index].callers.append(entry.done)
            } else {
                homes.append((home, [entry.done]))
            }
        }
        for (loop, callers) in homes {
            loop.execute { for caller in callers { caller.resume() } }
        }
    }
}
