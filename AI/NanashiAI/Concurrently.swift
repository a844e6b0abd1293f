import Foundation

/// Work spread over threads made for it, which keep the scheduling priority (on Linux, the
/// niceness) of the thread that asks for them. Dispatch's pool runs its threads at a priority of
/// its own, so under `nice -n 19 nanashi datagen` only the main thread was niced and the games
/// ran at the default priority, in the way of everything else on the machine.
public enum Concurrently {
    /// Runs `body(0)` to `body(count - 1)` at once, `body(0)` on the calling thread and each of
    /// the others on a new thread named `name` (at most 15 bytes are kept), and returns when all
    /// of them have: as `DispatchQueue.concurrentPerform` does, but on threads of its own.
    public static func perform(_ count: Int, named name: String = "nanashi.worker", _ body: (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        withoutActuallyEscaping(body) { body in
            // Each thread is joined before `perform` returns, and its job (the only holder of
            // `body` on that thread) is released when the thread's function returns, so the
            // body never outlives the call.
            let threads = (1..<count).map { worker in
                start(Job(body: body, worker: worker, name: String(name.utf8.prefix(15))!))
            }
            body(0)
            for thread in threads { pthread_join(thread, nil) }
        }
    }

    private final class Job {
        let body: (Int) -> Void
        let worker: Int
        let name: String

        init(body: @escaping (Int) -> Void, worker: Int, name: String) {
            self.body = body
            self.worker = worker
            self.name = name
        }
    }

    private static func start(_ job: Job) -> pthread_t {
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
                Thread.current.name = job.name
                job.body(job.worker)
                return nil
            }, Unmanaged.passRetained(job).toOpaque())
        precondition(created == 0, "no thread for a worker: error \(created)")
        return thread
    }
}
