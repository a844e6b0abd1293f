import NanashiCore
import NanashiProtocol
import NanashiRuntime
import Synchronization

/// Admission control for password hashing: at most `concurrency` hashes run at once, at most
/// `queueLimit` more wait, and anything beyond is refused at once with `busy`.
///
/// Requests come in two kinds: `.clean` ones from an address without recent failed logins go
/// first, and may take the place in the queue of a `.suspect` one (an address that has been
/// failing, as a flood does), which is then told `busy`. So a flood from many addresses, whose
/// guesses fail, cannot keep a player from a fresh address waiting.
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
        let drop: @Sendable (ProtocolError) -> Void
    }

    /// Whether a request comes from an address without recent failures (`clean`) or not.
    enum Standing: Sendable { case clean, suspect }

    private struct State {
        var running = 0
        var clean: [Job] = []
        var suspect: [Job] = []

        var waitingCount: Int { clean.count + suspect.count }

        /// Takes the next waiting job, clean ones first.
        mutating func next() -> Job? {
            if !clean.isEmpty { return clean.removeFirst() }
            if !suspect.isEmpty { return suspect.removeFirst() }
            return nil
        }

        /// Removes and returns the waiting jobs no longer wanted.
        mutating func unwanted() -> [Job] {
            let dropped = (clean + suspect).filter { !$0.isWanted() }
            clean.removeAll { !$0.isWanted() }
            suspect.removeAll { !$0.isWanted() }
            return dropped
        }
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
        _ standing: Standing = .clean, whileWanted isWanted: @escaping @Sendable () -> Bool,
        _ work: @escaping @Sendable () -> T
    ) async throws(ProtocolError) -> T {
        let result: Result<T, ProtocolError> = await withCheckedContinuation { continuation in
            let job = Job(
                isWanted: isWanted,
                run: { continuation.resume(returning: .success(work())) },
                drop: { continuation.resume(returning: .failure($0)) })
            guard isWanted() else {
                continuation.resume(returning: .failure(Self.gone))
                return
            }
            let (admitted, dropped) = state.withLock { state -> (Bool?, [(Job, ProtocolError)]) in
                if state.running < concurrency {
                    state.running += 1
                    return (true, [])
                }
                var dropped: [(Job, ProtocolError)] = []
                if state.waitingCount >= queueLimit {
                    // Make room by forgetting requests whose clients have gone.
                    dropped = state.unwanted().map { ($0, Self.gone) }
                }
                if state.waitingCount >= queueLimit, standing == .clean, !state.suspect.isEmpty {
                    // A clean request takes the place of the latest suspect one.
                    dropped.append((state.suspect.removeLast(), Self.full))
                }
                guard state.waitingCount < queueLimit else { return (nil, dropped) }
                switch standing {
                case .clean: state.clean.append(job)
                case .suspect: state.suspect.append(job)
                }
                return (false, dropped)
            }
            for (job, error) in dropped { job.drop(error) }
            switch admitted {
            case true?: start(job)
            case false?: break
            case nil: continuation.resume(returning: .failure(Self.full))
            }
        }
        return try result.get()
    }

    /// Requests waiting now (for tests and logs).
    var waitingCount: Int { state.withLock { $0.waitingCount } }

    private func start(_ job: Job) {
        threads.submit {
            let started = ContinuousClock.now
            job.run()
            self.lastDuration.store((ContinuousClock.now - started).wholeMilliseconds, ordering: .relaxed)
            self.finished()
        }
    }

    /// How long the last hash took (half a second before the first): what an unknown name
    /// waits when the decoy budget is spent, so that its answer takes as long as a real one.
    var typicalDuration: Duration { .milliseconds(lastDuration.load(ordering: .relaxed)) }
    private let lastDuration = Atomic<Int64>(500)

    /// Hands the freed thread to the next waiting request still wanted.
    private func finished() {
        let (next, dropped) = state.withLock { state -> (Job?, [Job]) in
            var dropped: [Job] = []
            while let job = state.next() {
                if job.isWanted() { return (job, dropped) }
                dropped.append(job)
            }
            state.running -= 1
            return (nil, dropped)
        }
        for job in dropped { job.drop(Self.gone) }
        if let next { start(next) }
    }

    private static let full = ProtocolError(
        .busy, "the server is busy checking passwords; try again in a few seconds")
    private static let gone = ProtocolError(.busy, "the request was dropped")
}
