import Synchronization

/// Writes that arrive while one is being stored wait and are then stored together, in one
/// transaction: the moves of thousands of games at once cost one commit each time the database
/// is free, rather than one each. Each caller returns once its own item is stored, as if it had
/// written alone; nothing is held back for a timer, so a lone write goes at once.
///
/// If a batch fails, its items are written one at a time, so that one that cannot be stored
/// (a duplicate, say) fails alone.
final class GroupCommit<Item: Sendable>: Sendable {
    private struct State {
        var waiting: [(item: Item, done: CheckedContinuation<Void, any Error>)] = []
        var writing = false
    }

    private let state = Mutex(State())
    private let threads: WorkerThreads
    private let write: @Sendable ([Item]) throws -> Void

    /// - Parameters:
    ///   - threads: where the batches are written, one at a time.
    ///   - write: stores a batch in one transaction, or throws and stores none of it.
    init(on threads: WorkerThreads, write: @escaping @Sendable ([Item]) throws -> Void) {
        self.threads = threads
        self.write = write
    }

    /// Items waiting for the next batch.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Stores `item` with whatever else is waiting; returns once it is stored.
    func store(_ item: Item) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let start = state.withLock { state in
                state.waiting.append((item, done))
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
            let batch = state.withLock { state in
                let batch = state.waiting
                state.waiting.removeAll(keepingCapacity: true)
                if batch.isEmpty { state.writing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                try write(batch.map(\.item))
                for entry in batch { entry.done.resume() }
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
}
