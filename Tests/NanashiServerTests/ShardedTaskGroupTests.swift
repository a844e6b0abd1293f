import NanashiTransport
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct ShardedTaskGroupTests {
    private struct Stop: Error, Equatable {}

    /// Every task added runs, whatever its key (negative ones too), and the groups return only
    /// once all have finished.
    @Test func everyTaskRunsAndTheGroupsWaitForAll() async throws {
        let finished = Mutex<Set<Int>>([])
        try await ShardedTaskGroup.withGroups(count: 4) { group in
            for key in -50..<50 {
                group.addTask(shard: key) {
                    for _ in 0..<(key & 7) { await Task.yield() }
                    finished.withLock { _ = $0.insert(key) }
                }
            }
        }
        #expect(finished.withLock { $0 } == Set(-50..<50))
    }

    /// When the body throws, the tasks added are cancelled and waited for, then the error is
    /// thrown.
    @Test func aThrowingBodyCancelsTheTasksAndWaitsForThem() async throws {
        let cancelled = Mutex<Set<Int>>([])
        await #expect(throws: Stop()) {
            try await ShardedTaskGroup.withGroups(count: 3) { group in
                for key in 0..<10 {
                    group.addTask(shard: key) {
                        try? await Task.sleep(for: .seconds(3600))
                        if Task.isCancelled { cancelled.withLock { _ = $0.insert(key) } }
                    }
                }
                throw Stop()
            }
        }
        #expect(cancelled.withLock { $0 } == Set(0..<10))
    }
}
