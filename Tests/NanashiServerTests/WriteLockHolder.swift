import Foundation
import GRDB

/// Another connection to a database file holding its write lock, as another process or a long
/// write would, from `init` until `release()`.
final class WriteLockHolder: Sendable {
    private let released = DispatchSemaphore(value: 0)

    /// Returns once the lock is held.
    init(path: String) throws {
        let queue = try DatabaseQueue(path: path)
        let holding = DispatchSemaphore(value: 0)
        let released = released
        Thread.detachNewThread {
            try? queue.inTransaction(.immediate) { _ in
                holding.signal()
                released.wait()
                return .commit
            }
        }
        holding.wait()
    }

    /// Lets the lock go.
    func release() { released.signal() }
}
