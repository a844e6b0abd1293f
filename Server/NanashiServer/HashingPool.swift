import NanashiProtocol
import Synchronization

/// Admission control for password hashing: at most `concurrency` hashes run at once, at most
/// `queueLimit` more wait, and anything beyond is refused at once with `busy`.
///
/// A scrypt hash at OWASP's cost takes a core and 128 MiB for about half a second, so an
/// unbounded queue lets one client that sends `login` and hangs up in a loop keep every core
/// busy while real logins wait minutes. Here a waiting request whose client has gone is dropped
/// before it starts (and makes room in the queue), so the only work done is for clients still
/// there to read the answer.
final class HashingPool: Sendable {
    private struct Job: Sendable {
        let isWanted: @Sendable () -> Bool
        let run: @Sendable () -> Void
        let drop: @Sendable () -> Void
    }

    private struct State {
        var running = 0
        var waiting: [Job] = []
    }

    let concurrency: Int
    let queueLimit: Int
    private let state = Mutex(State())
    private let threads: WorkerThreads

    init(concurrency: Int, queueLimit: Int) {
        self.concurrency = max(1, concurrency)
        self.queueLimit = max(0, queueLimit)
        threads = WorkerThreads(count: self.concurrency, name: "nanashi.hashing")
    }

    deinit { threads.stop() }

    /// Runs `work` on a hashing thread once there is room, as long as `isWanted()` still holds
    /// when its turn comes.
    ///
    /// - Throws: `busy` if the pool and its queue are full, or if the work was dropped because
    ///   it was no longer wanted.
    func run<T: Sendable>(
        whileWanted isWanted: @escaping @Sendable () -> Bool, _ work: @escaping @Sendable () -> T
    ) async throws(ProtocolError) -> T {
        let result: Result<T, ProtocolError> = await withCheckedContinuation { continuation in
            let job = Job(
                isWanted: isWanted,
                run: { continuation.resume(returning: .success(work())) },
                drop: { continuation.resume(returning: .failure(Self.gone)) })
            guard isWanted() else {
                continuation.resume(returning: .failure(Self.gone))
                return
            }
            let (admitted, dropped) = state.withLock { state -> (Bool?, [Job]) in
                if state.running < concurrency {
                    state.running += 1
                    return (true, [])
                }
                var dropped: [Job] = []
                if state.waiting.count >= queueLimit {
                    // Make room by forgetting requests whose clients have gone.
                    dropped = state.waiting.filter { !$0.isWanted() }
                    state.waiting.removeAll { !$0.isWanted() }
                }
                guard state.waiting.count < queueLimit else { return (nil, dropped) }
                state.waiting.append(job)
                return (false, dropped)
            }
            for job in dropped { job.drop() }
            switch admitted {
            case true?: start(job)
            case false?: break
            case nil: continuation.resume(returning: .failure(Self.full))
            }
        }
        return try result.get()
    }

    /// Requests waiting now (for tests and logs).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    private func start(_ job: Job) {
        threads.submit {
            job.run()
            self.finished()
        }
    }

    /// Hands the freed thread to the next waiting request still wanted.
    private func finished() {
        let (next, dropped) = state.withLock { state -> (Job?, [Job]) in
            var dropped: [Job] = []
            while !state.waiting.isEmpty {
                let job = state.waiting.removeFirst()
                if job.isWanted() { return (job, dropped) }
                dropped.append(job)
            }
            state.running -= 1
            return (nil, dropped)
        }
        for job in dropped { job.drop() }
        if let next { start(next) }
    }

    private static let full = ProtocolError(
        .busy, "the server is busy checking passwords; try again in a few seconds")
    private static let gone = ProtocolError(.busy, "the request was dropped")
}
