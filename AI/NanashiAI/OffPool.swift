import Dispatch

/// Runs long, CPU-bound work (a search) on a thread of its own instead of Swift's cooperative pool.
///
/// The cooperative pool has one thread per core. A search that holds one of them until it is told
/// to stop can starve the very task that would tell it: on a 2-core machine two infinite searches
/// left nothing to run `stop`. A serial dispatch queue gets its own thread, outside that pool.
enum OffPool {
    /// Runs `work` on a new serial queue and waits, without holding a pool thread, for its result.
    static func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "nanashi.search", qos: .userInitiated).async {
                continuation.resume(returning: work())
            }
        }
    }
}
