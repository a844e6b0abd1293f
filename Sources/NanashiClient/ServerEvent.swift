import NanashiProtocol

/// What a `ServerConnection` receives, in order.
public enum ServerEvent: Hashable, Sendable {
    /// A message this client understands.
    case reply(Reply)
    /// The server said it is shutting down (`{"type":"shutdown"}`); the connection closes next.
    case shutdown
    /// The connection closed, by either side; nothing follows.
    case closed
}
