import NIOCore
import Synchronization

/// Runs the jobs of the tasks that prefer it on one event loop.
///
/// A connection's task prefers the loop of its channel: it reads, computes and writes on the
/// thread that owns the socket, and when something resumes it from another thread (a storage
/// thread that committed its move, say), it comes back to that loop rather than to whichever
/// loop is next, which would then have to wake the socket's own loop to write the reply.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    private init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// One executor per loop, kept for the process's life: a task keeps no strong hold on the
    /// executor it prefers.
    private static let made = Mutex([ObjectIdentifier: EventLoopTaskExecutor]())

    /// The executor of `loop`.
    static func on(_ loop: any EventLoop) -> EventLoopTaskExecutor {
        made.withLock { made in
            let key = ObjectIdentifier(loop)
            if let executor = made[key] { return executor }
            let executor = EventLoopTaskExecutor(loop)
            made[key] = executor
            return executor
        }
    }
}
