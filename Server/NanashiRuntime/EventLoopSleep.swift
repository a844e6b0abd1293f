import NIOCore
import NIOPosix

/// Waits on one of NIO's event loops, which the server's tasks run on.
///
/// `Task.sleep` waits on a Dispatch timer: each wait wakes Dispatch's timer thread and a worker
/// thread, and one cancelled still fires at its deadline. A wait here is a timer in the loop's
/// own heap, gone at once when cancelled.
package enum EventLoopSleep {
    /// Returns after `duration`; throws `CancellationError` if the task is cancelled first.
    package static func sleep(for duration: Duration) async throws {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let timer = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .nanoseconds(nanoseconds)) {
        }
        try await withTaskCancellationHandler {
            do {
                try await timer.futureResult.get()
            } catch {
                throw CancellationError()
            }
        } onCancel: {
            timer.cancel()
        }
    }
}
