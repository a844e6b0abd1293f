import Foundation
import Logging
import NanashiRuntime
import NanashiStorage
import PostgresNIO
import Synchronization

/// Nodes on one PostgreSQL database: each node's row (its heartbeat), each game's host in its
/// row, the seek pool in a table, and messages with `NOTIFY` and `LISTEN` (the queries are
/// `PostgresStorage`'s, in PostgresStorage+Nodes.swift).
///
/// Each node listens on a channel of its own, `nanashi_node_ID`, and all on `nanashi_nodes`,
/// on one dedicated connection. Messages to a node arrive in the order they were sent: `send`
/// queues them, and one task sends what is queued (after `gather`, which lets more come) in one
/// statement at a time, retrying the same batch while the database is away. A message longer
/// than a notification may carry waits in `relay_message` and the notification carries its id.
/// Each payload starts with a number of its own, so that two equal messages in one batch are not
/// merged into one by PostgreSQL.
///
/// A message the database refuses (rather than fails to answer) is dropped, never retried, and
/// the messages after it go on; so is one that would take the queue past `maximumQueuedBytes`
/// (past half of it for a watcher's line, shed first). Either way `runSending`'s `refused`
/// is told, so that the sender of a request is answered and a watcher who missed a line is let go.
package final class PostgresCluster: Cluster {
    package let node: Int64
    package let storage: PostgresStorage
    private let logger: Logger
    private let queue = Mutex(Queue())
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    private let sequence = Atomic<Int>(0)
    private let queued = Atomic<Int>(0)
    private let sent = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    /// The clock of the pause before a lost listening connection is opened again.
    let clock: any ServerClock
    /// How long a batch waits for more messages before it is sent.
    private let gather: Duration
    /// The most bytes of messages waiting to be sent.
    package let maximumQueuedBytes: Int

    /// The longest payload sent as it is; a longer one goes through `relay_message`.
    package static let longestPayload = 7_000

    /// What waits to be sent, and what was refused before it was.
    private struct Queue {
        var waiting: [(node: Int64?, message: NodeMessage)] = []
        var bytes = 0
        var refused: [(node: Int64?, message: NodeMessage)] = []
    }

    /// - Parameters:
    ///   - gather: how long each batch of messages waits for more before it is sent in one
    ///     statement (none: at once).
    ///   - clock: times the pause before a lost listening connection is opened again.
    ///   - maximumQueuedBytes: the most bytes of messages waiting to be sent (while the
    ///     database is slow or away); a message past it is dropped, a watcher's line past half.
    package init(
        node: Int64, storage: PostgresStorage, gather: Duration = .zero,
        clock: any ServerClock = SystemClock(), maximumQueuedBytes: Int = 64 << 20,
        logger: Logger
    ) {
        self.node = node
        self.storage = storage
        self.gather = gather
        self.clock = clock
        self.maximumQueuedBytes = maximumQueuedBytes
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    package static func channel(of node: Int64) -> String { "nanashi_node_\(node)" }
    package static let everyNode = "nanashi_nodes"
    /// The `application_name` of `node`'s listening connection.
    package static func listenerName(of node: Int64) -> String { "nanashi node \(node) listening" }

    /// Queues a message for `node` (`nil`: every node); never waits. A message the queue has
    /// no room for is dropped (and handed to `runSending`'s `refused`).
    package func send(_ message: NodeMessage, to node: Int64?) {
        let bytes = message.approximateSize
        let limit = message.isShedFirst ? maximumQueuedBytes / 2 : maximumQueuedBytes
        let taken = queue.withLock { queue in
            guard queue.bytes + bytes <= limit else {
                queue.refused.append((node, message))
                return false
            }
            queue.waiting.append((node, message))
            queue.bytes += bytes
            return true
        }
        if taken {
            queued.add(1, ordering: .relaxed)
        } else {
            dropped.add(1, ordering: .relaxed)
        }
        wake.yield()
    }

    /// How many messages were queued so far (a test waits for a node's answer with it).
    package var queuedCount: Int { queued.load(ordering: .relaxed) }
    /// How many messages were sent so far: notified, whether or not anyone listened.
    package var sentCount: Int { sent.load(ordering: .relaxed) }
    /// How many messages were dropped so far: refused by the database or by a full queue.
    package var droppedCount: Int { dropped.load(ordering: .relaxed) }
    /// The bytes of the messages waiting to be sent.
    package var queuedBytes: Int { queue.withLock { $0.bytes } }

    /// The pause before a lost listening connection is opened again.
    package static let listenAgainAfter = Duration.milliseconds(200)

    /// Sends what is queued, batch after batch, until cancelled. Each message dropped (refused
    /// by the database, or with no room in the queue) is handed to `refused` with the node it was
    /// for (`nil`: every node), in order.
    package func runSending(refused: @escaping @Sendable (NodeMessage, Int64?) async -> Void = { _, _ in })
        async
    {
        for await _ in wakes {
            while !Task.isCancelled {
                if gather > .zero { try? await EventLoopSleep.sleep(for: gather) }
                let (batch, full) = queue.withLock { queue in
                    defer { (queue.waiting, queue.refused) = ([], []) }
                    return (queue.waiting, queue.refused)
                }
                for (node, message) in full {
                    logger.warning("a message to another node dropped: the queue is full")
                    await refused(message, node)
                }
                guard !batch.isEmpty else { break }
                var notifications: [Notification] = []
                notifications.reserveCapacity(batch.count)
                for (node, message) in batch {
                    let number = sequence.wrappingAdd(1, ordering: .relaxed).newValue
                    let channel = node.map(Self.channel(of:)) ?? Self.everyNode
                    notifications.append(
                        Notification(
                            node: node, channel: channel, payload: "\(number) " + message.payload(),
                            message: message))
                }
                let unsent = await sendUntilSent(notifications)
                let bytes = batch.reduce(0) { $0 + $1.message.approximateSize }
                queue.withLock { $0.bytes -= bytes }
                for notification in unsent {
                    await refused(notification.message, notification.node)
                }
            }
        }
    }

    /// One message as it goes to the database.
    private struct Notification {
        var node: Int64?
        var channel: String
        var payload: String
        var message: NodeMessage
    }

    /// Sends `notifications`, again and again while the database is away; returns the messages
    /// it refused. A batch refused is sent again one message at a time, so that only the
    /// message at fault is dropped and the others keep their order.
    private func sendUntilSent(_ notifications: [Notification]) async -> [Notification] {
        while !Task.isCancelled {
            do {
                try await sendOnce(notifications)
                sent.add(notifications.count, ordering: .relaxed)
                return []
            } catch  where Self.isRefusal(error) {
                guard notifications.count > 1 else {
                    logger.error(
                        "a message to another node dropped: the database refused it: \(String(reflecting: error))"
                    )
                    dropped.add(1, ordering: .relaxed)
                    return notifications
                }
                var refused: [Notification] = []
                for notification in notifications {
                    refused += await sendUntilSent([notification])
                }
                return refused
            } catch {
                logger.warning("messages to other nodes not sent yet: \(String(reflecting: error))")
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        return []
    }

    private func sendOnce(_ notifications: [Notification]) async throws {
        var notifications = notifications
        // The messages too long for a notification wait in `relay_message`, stored in one
        // statement; their notifications carry their ids.
        let long = notifications.indices.filter { notifications[$0].payload.utf8.count > Self.longestPayload }
        let ids = try await storage.storeRelayMessages(
            long.map { (String(Self.split(notifications[$0].payload).body), notifications[$0].node) })
        for (index, id) in zip(long, ids) {
            let (number, _) = Self.split(notifications[index].payload)
            notifications[index].payload = "\(number) @\(id)"
        }
        try await storage.notify(notifications.map { ($0.channel, $0.payload) })
    }

    /// Whether the database refused a statement for what it holds (a data exception, such as a
    /// NUL in text, or a limit of the program), so that sending it again would fail again.
    package static func isRefusal(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("22") || state.hasPrefix("54")
    }

    /// Listens on this node's channels and hands each message to `deliver`, in order, until
    /// cancelled; a lost connection is opened again, `listenAgainAfter` later on the clock.
    /// `listening` is told each time it listens.
    package func runListening(
        listening: @escaping @Sendable () -> Void, deliver: @escaping @Sendable (NodeMessage) async -> Void
    ) async {
        // Named, so that `pg_stat_activity` tells this connection from the others.
        var configuration = storage.configuration
        configuration.options.additionalStartupParameters.append(
            ("application_name", Self.listenerName(of: node)))
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: Int(node), logger: logger)
                defer { Task { try? await connection.close() } }
                try await connection.listen(on: Self.channel(of: node)) { own in
                    try await connection.listen(on: Self.everyNode) { all in
                        listening()
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for notifications in [own, all] {
                                group.addTask {
                                    for try await notification in notifications {
                                        guard let message = await self.read(notification.payload)
                                        else {
                                            continue
                                        }
                                        await deliver(message)
                                    }
                                }
                            }
                            try await group.next()
                            group.cancelAll()
                        }
                    }
                }
            } catch {
                logger.warning(
                    "listening to the other nodes failed, trying again: \(String(reflecting: error))")
            }
            try? await clock.sleep(for: Self.listenAgainAfter)
        }
    }

    private func read(_ payload: String) async -> NodeMessage? {
        var (_, body) = Self.split(payload)
        if body.hasPrefix("@"), let id = Int64(body.dropFirst()) {
            guard let stored = try? await storage.takeRelayMessage(id: id) else {
                logger.error("a relayed message \(id) cannot be read")
                return nil
            }
            body = stored[...]
        }
        do {
            return try NodeMessage(payload: body)
        } catch {
            logger.error("a message from another node cannot be read: \(error)")
            return nil
        }
    }

    /// A payload's number and its message.
    private static func split(_ payload: String) -> (number: Substring, body: Substring) {
        guard let space = payload.utf8.firstIndex(of: UInt8(ascii: " ")) else { return ("", payload[...]) }
        return (payload[..<space], payload[payload.utf8.index(after: space)...])
    }
}

extension NodeMessage {
    /// About how many bytes the message takes while it waits to be sent.
    package var approximateSize: Int {
        switch self {
        case .line(_, let text): 64 + text.utf8.count
        default: 128
        }
    }

    /// A watcher's line: the first dropped when the messages to other nodes pile up.
    package var isShedFirst: Bool {
        if case .line(.watcher, _) = self { true } else { false }
    }
}
