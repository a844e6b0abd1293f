import NanashiProtocol

extension ServerConnection {
    /// Sends one message and waits for its direct reply, skipping any other message; for
    /// one-off questions (`leaderboard`, `profile`) on a connection nothing else reads.
    ///
    /// - Throws: `ConnectionError` when the connection closes before the reply comes.
    public func reply(to message: ClientMessage) async throws(ConnectionError) -> ServerMessage {
        let id = RequestID.string("query")
        send(Request(message, id: id))
        for await event in events {
            if case .reply(let reply) = event, reply.id == id { return reply.message }
            if event == .shutdown || event == .closed { break }
        }
        throw ConnectionError(address: address, reason: "the server closed the connection")
    }
}
