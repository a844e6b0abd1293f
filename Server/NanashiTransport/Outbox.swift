import NanashiProtocol
import NanashiRuntime

/// Where the messages for one connection go: lines are queued and written in order by the
/// connection's own writer, so sending never waits.
package struct Outbox: Sendable, Hashable {
    /// What the transport's writer receives.
    package enum Event: Sendable {
        case line(String)
        /// A line of a watched game: dropped, and the connection closed, once the connection
        /// has more than `ServerSettings.maximumWatcherQueuedBytes` waiting.
        case watchedLine(String)
        case close
        /// A player logged in on the connection (true) or logged out (false).
        case loggedIn(Bool)
        /// The connection watches a game in progress (true) or no longer does: while it does, it
        /// need not log in.
        case watching(Bool)
    }

    /// Unique among the server's connections.
    package let id: Int
    private let sink: @Sendable (Event) -> Void
    /// Whether the connection is still open (its client may still read an answer).
    package let isOpen: @Sendable () -> Bool
    /// Told the code of every error sent (for the metrics).
    private let sentError: @Sendable (ErrorCode) -> Void

    package init(
        id: Int, isOpen: @escaping @Sendable () -> Bool = { true },
        sentError: @escaping @Sendable (ErrorCode) -> Void = { _ in },
        sink: @escaping @Sendable (Event) -> Void
    ) {
        self.id = id
        self.isOpen = isOpen
        self.sentError = sentError
        self.sink = sink
    }

    /// Queues one message, with the id of the request it answers, if any.
    package func send(_ message: ServerMessage, id requestID: RequestID? = nil) {
        if case .error(let error) = message { sentError(error.code) }
        sink(.line(Wire.line(Reply(message, id: requestID))))
    }

    /// Queues a line encoded already (by the node hosting the game, for a player here).
    package func sendLine(_ line: String) { sink(.line(line)) }

    /// Queues a line of a watched game, written once for all its watchers: a watcher whose
    /// client does not read is cut off sooner than a player's connection.
    package func sendWatched(_ line: String) { sink(.watchedLine(line)) }

    /// Tells the transport whether the connection is a spectator (it watches a game in
    /// progress): spectators are exempt from the login timeout while they watch, not from the
    /// idle one.
    package func markWatching(_ watching: Bool) { sink(.watching(watching)) }

    /// Writes what is queued, then closes the connection.
    package func close() { sink(.close) }

    /// Tells the transport whether a player is logged in here: a connection that has not
    /// logged in a while after it opened is closed.
    package func markLoggedIn(_ loggedIn: Bool) { sink(.loggedIn(loggedIn)) }

    package static func == (lhs: Outbox, rhs: Outbox) -> Bool { lhs.id == rhs.id }
    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
