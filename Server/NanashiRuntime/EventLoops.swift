import NIOCore
import NIOPosix

/// The event loop threads that serve the sockets, shared by the whole process.
package enum EventLoops {
    /// Makes Swift concurrency run its tasks on these threads, so that a request does not hop
    /// between them and the concurrency pool on its way in and out. Once, from the main thread,
    /// before anything runs.
    package static func runConcurrencyOnThem() {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
