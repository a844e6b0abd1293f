/// The items waiting for a batch writer, and whether it is writing: the bookkeeping that
/// `GroupCommit` and `StatementBatches` share. Kept under their lock.
package struct BatchQueue<Entry> {
    private var waiting: [Entry] = []
    private var writing = false

    /// Items waiting for the next batch.
    package var count: Int { waiting.count }

    /// Adds `entry`; true when no batch is being written, so the caller starts the writer.
    package mutating func add(_ entry: Entry) -> Bool {
        waiting.append(entry)
        guard !writing else { return false }
        writing = true
        return true
    }

    /// Everything waiting, as the next batch; empty once nothing waits, and then the writer stops.
    package mutating func takeBatch() -> [Entry] {
        let batch = waiting
        waiting.removeAll(keepingCapacity: true)
        if batch.isEmpty { writing = false }
        return batch
    }
}
