import NanashiCore
import Testing

@testable import NanashiAI

@Suite struct TranspositionTableTests {
    /// An entry reads back as written, every field at its extremes; an entry whose two words
    /// were written by two threads at once (one's lock, the other's data) matches neither key.
    @Test func entriesReadBackWholeAndATornEntryMatchesNoKey() {
        let table = TranspositionTable(megabytes: 1)
        let slot = table.entries + 5
        let records = [
            TranspositionTable.Record(move: 0xFFFF, score: .min, depth: .max, bound: .exact),
            TranspositionTable.Record(move: 0, score: .max, depth: -1, bound: .upper),
            TranspositionTable.Record(move: 1234, score: -7, depth: 0, bound: .lower),
        ]
        for (record, key) in zip(records, [0xDEAD_BEEF_0123_4567, 1, .max] as [UInt64]) {
            TranspositionTable.write(record, key: key, at: slot)
            let (read, readRecord) = TranspositionTable.read(slot)
            #expect(read == key)
            #expect(
                readRecord.move == record.move && readRecord.score == record.score
                    && readRecord.depth == record.depth && readRecord.bound == record.bound)
        }
        let (first, second) = (records[0], records[2])
        TranspositionTable.write(first, key: 42, at: slot)
        let firstLock = slot.pointee.lock
        TranspositionTable.write(second, key: 43, at: slot)
        slot.pointee.lock = firstLock
        let (torn, _) = TranspositionTable.read(slot)
        #expect(torn != 42 && torn != 43)
        table.clear()
        #expect(TranspositionTable.read(slot).key == 0 && TranspositionTable.read(slot).record.bound == .none)
    }

    /// A node where no move reached alpha leaves the table's move as it found it, to be tried
    /// first again; any other node, or one that found no table move, leaves its best move.
    @Test func aNodeThatFailedLowKeepsTheTablesMove() throws {
        let best = MoveCode.pack(try Move(notation: "b6"))
        let table = MoveCode.pack(try Move(notation: "a7c5"))
        #expect(Search.moveForTable(best: best, table: table, bound: .upper) == table)
        #expect(Search.moveForTable(best: best, table: MoveCode.none, bound: .upper) == best)
        for bound in [TranspositionTable.Bound.lower, .exact] {
            #expect(Search.moveForTable(best: best, table: table, bound: bound) == best)
        }
    }
}
