import NanashiProtocol

/// Where the messages for one connection go: lines are queued and written in order by the
/// connection's own writer, so sending never waits.
struct Outbox: Sendable, Hashable {
    /// What the transport's writer receives.
    enum Event: Sendable {
        case line(String)
        case close
    }

    /// Unique among the server's connections.
    let id: Int
    private let sink: @Sendable (Event) -> Void

    init(id: Int, sink: @escaping @Sendable (Event) -> Void) {
        self.id = id
        self.sink = sink
    }

    /// Queues one message, with the id of the request it answers, if any.
    func send(_ message: ServerMessage, id requestID: RequestID? = nil) {
        sink(.line(Wire.line(Reply(message, id: requestID))))
    }

    /// Writes what is queued, then closes the connection.
    func close() { sink(.close) }

    static func == (lhs: Outbox, rhs: Outbox) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
