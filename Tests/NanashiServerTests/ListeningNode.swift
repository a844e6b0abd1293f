import Foundation
import NanashiCluster
import NanashiStorage

@testable import NanashiServer

/// A node of the test's own on a PostgreSQL database: it sends what the test tells it to, and
/// hands the test the messages other nodes send it (but their words about logins).
final class ListeningNode {
    let storage: PostgresStorage
    let link: PostgresCluster
    private var messages: AsyncStream<NodeMessage>.AsyncIterator
    private let tasks: [Task<Void, Never>]

    /// Joins the database at `url` as a node and returns once it listens.
    init(url: String) async throws {
        storage = try await PostgresStorage.open(url)
        let link = PostgresCluster(
            node: try await storage.joinAsNode(now: Date()), storage: storage, logger: .quiet)
        self.link = link
        let (received, arrive) = AsyncStream<NodeMessage>.makeStream()
        let (listening, ready) = AsyncStream<Void>.makeStream()
        tasks = [
            Task { await link.runListening(listening: { ready.yield() }, deliver: { arrive.yield($0) }) },
            Task { await link.runSending() },
        ]
        for await _ in listening { break }
        messages = received.makeAsyncIterator()
    }

    /// The next message about a game (not the nodes' words about logins).
    func next() async -> NodeMessage? {
        while let message = await messages.next() {
            if case .loggedIn = message { continue }
            return message
        }
        return nil
    }

    /// Stops listening and sending, and closes the database.
    func stop() async {
        for task in tasks { task.cancel() }
        await storage.close()
    }
}
