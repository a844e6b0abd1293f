import Foundation
import NanashiStorage
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct StatementBatchesTests {
    private struct Refused: Error, Equatable {}

    /// What arrives while a batch is written goes in the next batch, all of it at once, and each
    /// caller gets its own item's answer; a batch that fails fails each of its items, and the
    /// next batch is written as usual.
    @Test func writesThatArriveMeanwhileGoTogether() async throws {
        let batches = Mutex<[[Int]]>([])
        let (started, start) = AsyncStream<Void>.makeStream()
        let (released, release) = AsyncStream<Void>.makeStream()
        let writes = StatementBatches<Int, Int> { batch in
            batches.withLock { $0.append(batch) }
            if batch == [0] {
                start.yield()
                for await _ in released { break }
            }
            if batch.contains(13) { throw Refused() }
            return batch.map { $0 * 10 }
        }
        let first = Task { try await writes.store(0) }
        for await _ in started { break }
        // While 0 is being written, four more arrive.
        let later = [1, 2, 3, 4].map { item in Task { try await writes.store(item) } }
        while writes.waitingCount < 4 { try await Task.sleep(for: .milliseconds(1)) }
        release.yield()
        #expect(try await first.value == 0)
        var answers: [Int] = []
        for task in later { answers.append(try await task.value) }
        #expect(answers == [10, 20, 30, 40])
        #expect(batches.withLock { $0.map { Set($0) } } == [[0], [1, 2, 3, 4]])
        // A failing batch fails each of its items; the next one is written again.
        await #expect(throws: Refused()) { try await writes.store(13) }
        #expect(try await writes.store(5) == 50)
    }

    /// A write that answers fewer items than it was given fails them all rather than answer
    /// one with another's answer.
    @Test func aWriteThatAnswersTheWrongCountFails() async throws {
        let writes = StatementBatches<Int, Int> { _ in [] }
        await #expect(throws: BatchAnswerMismatch.self) { try await writes.store(1) }
    }
}
