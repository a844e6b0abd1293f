import Foundation

/// A fixed set of threads of their own for work that blocks (password hashing, SQLite calls).
///
/// Not Dispatch's queues: on Linux their threads are the ones Swift's tasks run on as well, and
/// a few blocked work items there hold up every task in the process. The owner calls `stop()`
/// when it goes away.
package final class WorkerThreads: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false

    /// `count` threads (at least one) named `name.1`, `name.2`...; each calls `prepare` first.
    package init(count: Int, name: String, prepare: @escaping @Sendable () -> Void = {}) {
        for index in 0..<max(1, count) {
            let thread = Thread {
                prepare()
                self.work()
            }
            thread.name = "\(name).\(index + 1)"
            thread.start()
        }
    }

    /// Runs `job` on the next free thread.
    package func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` on a worker thread and waits for it without blocking the caller's thread.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            submit { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Lets the threads end once the jobs already submitted are done.
    package func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// What a slot holds once its job is taken.
    private static let taken: @Sendable () -> Void = {}

    private func work() {
        while true {
            condition.lock()
            while head == jobs.count && !stopping { condition.wait() }
            if head == jobs.count {
                condition.unlock()
                return
            }
            let job = jobs[head]
            // The slot lets go of the job at once: a job keeps what it captured alive (a test's
            // client captures itself, and through these threads held its socket and thread for
            // good), and slots are only reclaimed a thousand at a time.
            jobs[head] = Self.taken
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}
