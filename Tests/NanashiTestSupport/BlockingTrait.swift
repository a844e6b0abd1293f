import Foundation
import Testing

/// Runs a test that blocks its thread for long (a search, a tuner's fit, waiting for a child
/// process) on threads of its own instead of Swift concurrency's pool, as `@Suite(.blocking)` or
/// `@Test(.blocking)`.
///
/// The pool has one thread per core, and every test of the process runs in it, next to the
/// tasks of the servers the server and load tests start in process. On a 2-core machine two
/// blocking tests held the whole pool for seconds, and those servers stopped answering.
public struct BlockingTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Whether the calling thread is one of the blocking tests' own.
    public static var isOnALane: Bool { Thread.current.threadDictionary[laneKey] != nil }

    static let laneKey = "nanashi.blocking-test-lane"

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope holds no test's body; its test cases come here one by one.
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(BlockingLanes.shared) { try await function() }
    }
}

extension Trait where Self == BlockingTrait {
    /// The test blocks its thread for long: it runs apart from Swift concurrency's pool.
    public static var blocking: Self { BlockingTrait() }
}

/// A task executor on threads of its own, as many as the machine has cores: blocking tests take
/// turns among themselves, and leave the servers' threads their share of the processors.
private final class BlockingLanes: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingLanes(count: ProcessInfo.processInfo.activeProcessorCount)

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [UnownedJob] = []

    private init(count: Int) {
        for index in 0..<max(1, count) {
            let thread = Thread { self.work() }
            thread.name = "blocking-test.\(index + 1)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        Thread.current.threadDictionary[BlockingTrait.laneKey] = true
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
