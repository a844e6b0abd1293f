import Foundation
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct GroupCommitTests {
    private struct Refused: Error, Equatable {}

    /// What arrives while a batch is written goes in the next batch, all of it at once; an item
    /// the write refuses fails alone.
    @Test func writesThatArriveMeanwhileGoTogetherAndABadOneFailsAlone() async throws {
        let threads = WorkerThreads(count: 1, name: "test.group-commit")
        defer { threads.stop() }
        let batches = Mutex<[[Int]]>([])
        let firstStarted = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let commit = GroupCommit<Int>(on: threads) { batch in
            batches.withLock { $0.append(batch) }
            if batch == [0] {
                firstStarted.signal()
                _ = release.wait(timeout: .now() + 60)
            }
            if batch.contains(13) { throw Refused() }
        }
        let first = Task { try await commit.store(0) }
        await withCheckedContinuation { done in
            DispatchQueue.global().async {
                firstStarted.wait()
                done.resume()
            }
        }
        // While 0 is being written, four more arrive, one of which is refused.
        let later = [1, 13, 2, 3].map { item in Task { try await commit.store(item) } }
        while commit.waitingCount < 4 { try await Task.sleep(for: .milliseconds(1)) }
        release.signal()
        try await first.value
        for (item, task) in zip([1, 13, 2, 3], later) {
            if item == 13 {
                await #expect(throws: Refused()) { try await task.value }
            } else {
                try await task.value
            }
        }
        let written = batches.withLock { $0 }
        #expect(written.first == [0])
        #expect(written.dropFirst().first.map { Set($0) } == [1, 13, 2, 3])
        #expect(written.dropFirst(2).map(\.count).allSatisfy { $0 == 1 } && written.count == 6)
    }
}
