import Foundation
import NIOCore
import NIOPosix

/// The event loop threads that serve the sockets, shared by the whole process.
package enum EventLoops {
    /// How many loops a server runs unless told: one a core but one, at least one, so that the
    /// storage threads and the engine's keep a core; `NIO_SINGLETON_GROUP_LOOP_COUNT` instead,
    /// if it is set to a number, as SwiftNIO reads it. On two cores one loop costs less CPU a
    /// move than two (docs/OPERATIONS.md).
    package static func defaultCount(
        environment: [String: String] = ProcessInfo.processInfo.environment, cores: Int = System.coreCount
    ) -> Int {
        let variable = environment["NIO_SINGLETON_GROUP_LOOP_COUNT"]
        if let count = variable.flatMap({ Int($0) }), count >= 1 { return count }
        return max(1, cores - 1)
    }

    /// Makes Swift concurrency run its tasks on `count` loop threads, so that a request does
    /// not hop between them and the concurrency pool on its way in and out. Once, from the main
    /// thread, before anything runs.
    package static func runConcurrencyOnThem(count: Int) {
        NIOSingletons.groupLoopCountSuggestion = count
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
