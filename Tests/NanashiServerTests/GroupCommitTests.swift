import Foundation
import NIOCore
import NIOPosix
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

    /// Runs each job on the thread that enqueues it: a task that prefers it goes on, after a
    /// wait, on the thread that resumed it.
    private final class InlineExecutor: TaskExecutor {
        func enqueue(_ job: consuming ExecutorJob) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// A caller that stored from an event loop is resumed from that loop's thread, so that what
    /// it does next (a game's replies) starts where its connection lives; one that stored from
    /// elsewhere is resumed from the writing thread.
    @Test func aCallerFromAnEventLoopIsResumedOnIt() async throws {
        let threads = WorkerThreads(count: 1, name: "test.group-commit-loop")
        defer { threads.stop() }
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        for (home, onLoop) in [(loop as (any EventLoop)?, true), (nil, false)] {
            let commit = GroupCommit<Int>(on: threads, currentLoop: { home }, write: { _ in })
            let resumedOnLoop = try await Task(executorPreference: InlineExecutor()) {
                try await commit.store(1)
                return loop.inEventLoop
            }.value
            #expect(resumedOnLoop == onLoop)
        }
    }
}
