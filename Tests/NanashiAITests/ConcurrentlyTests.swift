import Foundation
import NanashiAI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct ConcurrentlyTests {
    /// What the workers saw, from any thread.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int: Int32] = [:]
        func record(_ worker: Int, _ value: Int32) { lock.withLock { values[worker, default: 0] += value } }
        var all: [Int: Int32] { lock.withLock { values } }
    }

    @Test func eachWorkerRunsOnceAndAllHaveEndedWhenPerformReturns() {
        let seen = Seen()
        Concurrently.perform(4) { worker in
            Thread.sleep(forTimeInterval: worker == 3 ? 0.05 : 0)
            seen.record(worker, 1)
        }
        #expect(seen.all == [0: 1, 1: 1, 2: 1, 3: 1])
        let none = Seen()
        Concurrently.perform(0) { none.record($0, 1) }
        #expect(none.all.isEmpty)
    }

    /// No worker's closure outlives `perform`: the body is borrowed, not kept, so a run that left
    /// a thread holding it (until the thread object is let go) traps in a debug build. Many short
    /// runs in a row give such a thread every chance to be late.
    @Test func manyShortRunsInARowLeaveNoWorkerBehind() {
        let seen = Seen()
        for _ in 0..<500 { Concurrently.perform(3) { seen.record($0, 1) } }
        #expect(seen.all == [0: 500, 1: 500, 2: 500])
    }

    #if os(Linux)
        /// Under `nice`, every worker runs at the niceness of the thread that started them. The
        /// test nices a thread of its own, which ends with the test, so no other test's thread is
        /// slowed. The two workers meet before they look, so that each runs on a thread of its own
        /// (one could otherwise run both, on the calling thread).
        @Test func theWorkersKeepTheNicenessOfTheThreadThatStartsThem() {
            let seen = Seen()
            let asked = Seen()
            let done = DispatchSemaphore(value: 0)
            let arrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
            let thread = Thread {
                // On Linux a niceness is a thread's: `who` 0 is the calling thread.
                let which = __priority_which_t(PRIO_PROCESS.rawValue)
                setpriority(which, 0, min(getpriority(which, 0) + 3, 19))
                asked.record(0, getpriority(which, 0))
                Concurrently.perform(2) { worker in
                    arrived[worker].signal()
                    let met = arrived[1 - worker].wait(timeout: .now() + 60) == .success
                    seen.record(worker, met ? getpriority(which, 0) : -100)
                }
                done.signal()
            }
            thread.start()
            done.wait()
            let niceness = asked.all[0]!
            #expect(niceness > 0)
            #expect(seen.all == [0: niceness, 1: niceness])
        }
    #endif
}
