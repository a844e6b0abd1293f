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

extension ServerConnection {
    /// One question to the first of `servers` that answers, on a connection of its own: the direct reply,
    /// read by `answer` (`nil` for a reply of another type, named `what` in the error). A server
    /// that sends nothing for `answerWithin` is taken for dead.
    ///
    /// - Throws: `QueryError` when the server cannot be reached, refuses the question (its
    ///   `error` message), or answers something else.
    public static func ask<Answer>(
        _ message: ClientMessage, at servers: ServerList, for what: String,
        answerWithin: Duration = .seconds(20), _ answer: (ServerMessage) -> Answer?
    ) async throws(QueryError) -> Answer {
        let reply: ServerMessage
        do {
            let connection = try await ServerConnection.connect(to: servers, answerWithin: answerWithin)
            defer { connection.close() }
            reply = try await connection.reply(to: message)
        } catch {
            throw QueryError(description: error.description)
        }
        if case .error(let error) = reply { throw QueryError(description: error.message) }
        guard let answer = answer(reply) else {
            throw QueryError(description: "the server answered \(reply.type), not \(what)")
        }
        return answer
    }
}

/// A question to a server went unanswered: one line for the person.
public struct QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
}
