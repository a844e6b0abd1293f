import Foundation
import NanashiRuntime
import NanashiStorage
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct GroupCommitTests {
    private struct Refused: Error, Equatable {}

    /// The items whose callers have returned, shared with the tasks that store them.
    private final class Returned: Sendable {
        let items = Mutex<[Int]>([])
    }

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

    /// With a delay, a batch waits before it is written, and whatever is stored meanwhile goes in
    /// it: moves that come one at a time share a commit. Each caller still returns only once its
    /// item is written.
    @Test func aDelayedBatchTakesWhatArrivesMeanwhile() async throws {
        let threads = WorkerThreads(count: 1, name: "test.group-commit-delay")
        defer { threads.stop() }
        let batches = Mutex<[[Int]]>([])
        let pauses = Mutex<[Duration]>([])
        let pausing = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let commit = GroupCommit<Int>(
            on: threads, delay: .milliseconds(3),
            pause: { delay in
                pauses.withLock { $0.append(delay) }
                pausing.signal()
                _ = resume.wait(timeout: .now() + 60)
            },
            write: { batch in batches.withLock { $0.append(batch) } })
        let first = Task { try await commit.store(1) }
        await withCheckedContinuation { done in
            DispatchQueue.global().async {
                _ = pausing.wait(timeout: .now() + 10)
                done.resume()
            }
        }
        // The first batch is waiting: nothing is written yet, and three more arrive meanwhile.
        #expect(batches.withLock { $0.isEmpty })
        let later = [2, 3, 4].map { item in Task { try await commit.store(item) } }
        for _ in 0..<10_000 where commit.waitingCount < 4 { try await Task.sleep(for: .milliseconds(1)) }
        // Every later wait (for a next batch that turns out empty) ends at once.
        resume.signal()
        for _ in 0..<8 { resume.signal() }
        try await first.value
        for task in later { try await task.value }
        let written = batches.withLock { $0 }
        #expect(written.map { Set($0) } == [[1, 2, 3, 4]])
        #expect(pauses.withLock { $0.first } == .milliseconds(3))
    }

    /// A batch's callers are answered together, by one closure handed to `answer`: none returns
    /// before it runs, and each then gets its own outcome (a refused item its error).
    @Test func aBatchsCallersAreAnsweredInOneHandOver() async throws {
        let threads = WorkerThreads(count: 1, name: "test.group-commit-answer")
        defer { threads.stop() }
        let handed = Mutex<[@Sendable () -> Void]>([])
        let returned = Returned()
        let pausing = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let commit = GroupCommit<Int>(
            on: threads, delay: .milliseconds(1),
            pause: { _ in
                pausing.signal()
                _ = resume.wait(timeout: .now() + 60)
            },
            answer: { work in handed.withLock { $0.append(work) } },
            write: { batch in if batch.contains(13) { throw Refused() } })
        let store = { @Sendable (item: Int) in
            Task {
                try await commit.store(item)
                returned.items.withLock { $0.append(item) }
            }
        }
        let first = store(1)
        await withCheckedContinuation { done in
            DispatchQueue.global().async {
                _ = pausing.wait(timeout: .now() + 10)
                done.resume()
            }
        }
        let later = [13, 2].map(store)
        for _ in 0..<10_000 where commit.waitingCount < 3 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(commit.waitingCount == 3)
        // The batch is written, then the writer waits out the next (empty) batch's delay.
        for _ in 0..<8 { resume.signal() }
        for _ in 0..<10_000 where handed.withLock({ $0.isEmpty }) {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(returned.items.withLock { $0.isEmpty })
        let answers = handed.withLock { $0 }
        #expect(answers.count == 1)
        answers.first?()
        try await first.value
        await #expect(throws: Refused()) { try await later[0].value }
        try await later[1].value
        #expect(Set(returned.items.withLock { $0 }) == [1, 2])
        #expect(handed.withLock { $0.count } == 1)
    }
}
