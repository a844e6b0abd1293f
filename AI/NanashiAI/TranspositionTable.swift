import CSearchMemory

/// A fixed-size hash table of search results, keyed by `Position.hash`, shared by the threads of
/// a search.
///
/// One entry per slot, replaced when the new result is at least nearly as deep or comes from
/// another position: deep results are the expensive ones, but a table that never forgets fills up
/// with positions the game has left behind.
final class TranspositionTable {
    /// One remembered search result (16 bytes): two words, the result packed in `data` and the
    /// position's key xored with it in `lock`. Threads read and write the words without a lock;
    /// an entry two threads wrote at once (one's `lock`, the other's `data`) matches neither key.
    struct Entry {
        var lock: UInt64
        var data: UInt64
    }

    /// A result as an entry holds it.
    struct Record {
        var move: UInt16
        var score: Int16
        var depth: Int8
        var bound: Bound

        /// The record packed into an entry's `data` word.
        @inline(__always)
        var data: UInt64 {
            UInt64(move) | UInt64(UInt16(bitPattern: score)) << 16 | UInt64(UInt8(bitPattern: depth)) << 32
                | UInt64(bound.rawValue) << 40
        }

        @inline(__always)
        init(move: UInt16, score: Int16, depth: Int8, bound: Bound) {
            self.move = move
            self.score = score
            self.depth = depth
            self.bound = bound
        }

        /// The record an entry's `data` word holds.
        @inline(__always)
        init(data: UInt64) {
            move = UInt16(truncatingIfNeeded: data)
            score = Int16(bitPattern: UInt16(truncatingIfNeeded: data >> 16))
            depth = Int8(bitPattern: UInt8(truncatingIfNeeded: data >> 32))
            bound = Bound(rawValue: UInt8(truncatingIfNeeded: data >> 40) & 3)!
        }
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
        entries.initialize(repeating: Entry(lock: 0, data: 0), count: mask + 1)
    }

    /// The key and the record of the entry at `slot`, read whole (the key is what the entry's
    /// words say: a torn entry gives a key no position has, almost surely).
    @inline(__always)
    static func read(_ slot: UnsafeMutablePointer<Entry>) -> (key: UInt64, record: Record) {
        let words = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: UInt64.self)
        let data = nanashi_load_word(words + 1)
        let lock = nanashi_load_word(words)
        return (lock ^ data, Record(data: data))
    }

    /// Writes `record` for `key` at `slot`.
    @inline(__always)
    static func write(_ record: Record, key: UInt64, at slot: UnsafeMutablePointer<Entry>) {
        let words = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: UInt64.self)
        let data = record.data
        nanashi_store_word(words, key ^ data)
        nanashi_store_word(words + 1, data)
    }
}
