import CSearchMemory

/// A fixed-size hash table of search results, keyed by `Position.hash`.
///
/// One entry per slot, replaced when the new result is at least nearly as deep or comes from
/// another position: deep results are the expensive ones, but a table that never forgets fills up
/// with positions the game has left behind.
final class TranspositionTable {
    /// One remembered search result (16 bytes).
    struct Entry {
        var key: UInt64
        var move: UInt16
        var score: Int16
        var depth: Int8
        var bound: Bound
    }

    /// What the stored score says about the true score.
    enum Bound: UInt8 {
        case none = 0
        /// The true score is at most the stored one (no move reached alpha).
        case upper = 1
        /// The true score is at least the stored one (a move reached beta).
        case lower = 2
        /// The stored score is the true score.
        case exact = 3
    }

    let entries: UnsafeMutablePointer<Entry>
    let mask: Int

    /// A table of at most `megabytes` MB (at least one), rounded down to a power of two entries.
    init(megabytes: Int) {
        let bytes = max(1, megabytes) << 20
        var count = 1
        while count * 2 * MemoryLayout<Entry>.stride <= bytes { count *= 2 }
        guard let memory = nanashi_allocate_table(count * MemoryLayout<Entry>.stride) else {
            fatalError("no memory for a transposition table of \(count) entries")
        }
        entries = memory.bindMemory(to: Entry.self, capacity: count)
        mask = count - 1
        clear()
    }

    deinit { nanashi_free_table(entries) }

    /// Forgets everything.
    func clear() {
        entries.initialize(
            repeating: Entry(key: 0, move: 0, score: 0, depth: 0, bound: .none), count: mask + 1)
    }
}
