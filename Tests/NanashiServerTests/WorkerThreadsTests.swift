import Foundation
import NanashiRuntime
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct WorkerThreadsTests {
    /// Something a job captures, noting when it is freed.
    private final class Captured: Sendable {
        let freed: @Sendable () -> Void
        init(freed: @escaping @Sendable () -> Void) { self.freed = freed }
        deinit { freed() }
    }

    /// A job that has run lets go of what it captured: an owner that a job captures (as a
    /// client that reads on these threads captures itself) is freed once nothing else holds it,
    /// and with it its threads and sockets.
    @Test func aJobThatHasRunKeepsNothingItCapturedAlive() async throws {
        let threads = WorkerThreads(count: 1, name: "test-worker")
        defer { threads.stop() }
        let freed = Mutex(false)
        var captured: Captured? = Captured { freed.withLock { $0 = true } }
        try await threads.run { [captured] in _ = captured }
        captured = nil
        // The job has returned, but its thread may still hold it for the moment before it
        // takes the next: a second job waits for that.
        try await threads.run {}
        #expect(freed.withLock { $0 })
    }
}
