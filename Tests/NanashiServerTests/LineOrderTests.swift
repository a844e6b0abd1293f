import Foundation
import Logging
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import NanashiTransport
import NanashiWeb
import Testing

/// A connection's lines reach its client in the order they were sent, whether sent on the
/// channel's event loop or from another thread: a line sent on the loop is not written ahead of
/// one another thread sent before it (which waits in the loop's queue).
@Suite struct LineOrderTests {
    /// No pages: these tests speak only the protocol's port.
    private struct NoPages: WebSource {
        func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
            Leaderboard(total: 0, entries: [])
        }
        func profile(name: String) async throws -> Profile? { nil }
        func finishedGames(name: String, before: Int64?, limit: Int) async throws -> GameArchive? { nil }
        func finishedGame(id: Int64) async throws -> FinishedGameRecord? { nil }
        func liveGames() async -> [LiveGame] { [] }
        func isInProgress(game: Int64) async -> Bool { false }
        func metrics() async -> String { "" }
        var levels: [LevelEntry] { [] }
    }

    /// Answers each line by running `answer` on the thread that read it (the channel's event
    /// loop: the transport hands a line over without a hop).
    private struct Answering: ConnectionHandler {
        let outbox: Outbox
        let answer: @Sendable (Outbox) -> Void
        func received(_ line: ReceivedLine) async { answer(outbox) }
        func closed() async {}
    }

    /// Runs a transport whose connections answer each line with `answer`, and a client of it.
    private func withConnection(
        answer: @escaping @Sendable (Outbox) -> Void, _ body: (TestClient) async throws -> Void
    ) async throws {
        var settings = ServerSettings()
        settings.port = 0
        let transport = try await Transport.bind(settings, metrics: ServerMetrics())
        let sites = (pages: WebSite(source: NoPages()), metrics: WebSite(source: NoPages(), part: .metrics))
        let running = Task {
            await transport.run(logger: Logger(label: "test"), sites: sites, reads: AddressReads(settings)) {
                outbox, _, _ in Answering(outbox: outbox, answer: answer)
            }
        }
        // The transport stops whether or not the client's part passed.
        let outcome: Result<Void, any Error>
        do {
            let client = try TestClient(port: transport.port)
            defer { client.close() }
            try await body(client)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await transport.abort()
        await running.value
        try outcome.get()
    }

    @Test func aLineSentOnTheLoopWaitsBehindOneSentFromAnotherThread() async throws {
        let answer: @Sendable (Outbox) -> Void = { outbox in
            // On the loop: another thread sends first, and its line waits in the loop's queue
            // (the loop is busy here) when this one is sent.
            let sent = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                outbox.sendLine("from another thread")
                sent.signal()
            }
            sent.wait()
            outbox.sendLine("from the loop")
        }
        try await withConnection(answer: answer) { client in
            client.send("go")
            let lines = [try await client.line(), try await client.line()]
            #expect(lines == ["from another thread", "from the loop"])
        }
    }
}
