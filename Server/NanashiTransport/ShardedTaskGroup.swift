/// Tasks spread over several discarding task groups instead of one, each in the group of its
/// shard.
///
/// Swift's runtime removes a finished child from its group by walking the group's list of
/// children: with 10,000 connections in one group each close walks thousands of them (2 % of
/// the server's CPU at 10,000 clients, most of it when many close at once). In `count` groups
/// each walk is `count` times shorter.
package struct ShardedTaskGroup: Sendable {
    private typealias Work = @Sendable () async -> Void

    private let inboxes: [AsyncStream<Work>.Continuation]

    /// Runs `body` with `count` groups to add tasks to. Returns once `body` has returned and
    /// every task added has finished; if `body` throws, once the tasks have finished, cancelled.
    package static func withGroups(count: Int, _ body: (ShardedTaskGroup) async throws -> Void) async throws {
        try await withThrowingDiscardingTaskGroup { shards in
            var inboxes: [AsyncStream<Work>.Continuation] = []
            for _ in 0..<max(1, count) {
                let (stream, inbox) = AsyncStream.makeStream(of: Work.self)
                inboxes.append(inbox)
                shards.addTask {
                    await withDiscardingTaskGroup { group in
                        for await work in stream {
                            group.addTask(operation: work)
                        }
                    }
                }
            }
            defer { for inbox in inboxes { inbox.finish() } }
            try await body(ShardedTaskGroup(inboxes: inboxes))
        }
    }

    /// Starts `operation` in the group of shard `key` (any integer; connections use their id).
    package func addTask(shard key: Int, operation: @escaping @Sendable () async -> Void) {
        let index = Int(UInt(bitPattern: key) % UInt(inboxes.count))
        if case .terminated = inboxes[index].yield(operation) {
            // The groups were cancelled: the task still runs, on its own.
            Task(operation: operation)
        }
    }
}
