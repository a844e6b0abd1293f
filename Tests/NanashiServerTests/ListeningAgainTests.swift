import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

@testable import NanashiServer

@Suite struct ListeningAgainTests {
    /// The host of a game across two nodes loses its listening connection and listens again:
    /// whatever the other node sent it meanwhile is lost (the other node may have been cut off by
    /// the same outage, and its own `present` lost), so the other node presents its player and its
    /// watcher again, and each gets the game afresh; play goes on both ways.
    @Test func theOtherNodePresentsItsPlayersAgainToAHostThatListensAgain() async throws {
        let setup = try await GameAcrossNodes(plies: 4)
        let (url, two, host, relayed) = (setup.url, setup.servers, setup.host, setup.relayed)
        var played = setup.played
        let watcher = try two[setup.otherIndex].client()
        let watch = #"{"type":"watch","game":\#(played.game),"id":"w"}"#
        let watching = try await watcher.exchange(watch)
        guard case .watching = try Wire.reply(fromLine: Array(watching.utf8)).message else {
            throw TestClient.Failure(description: "expected watching, got \(watching)")
        }

        // The host's listening connection of this test's database only: other tests' nodes,
        // numbered from 1 too, share the cluster.
        let database = try await PostgresStorage.open(url)
        let cut = try await database.rows(
            """
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = \(NodeLink.listenerName(of: host))
            """
        )
        #expect(cut.count == 1)
        await database.close()

        let again = try await played.clients[relayed]!.reply()
        guard case .game(let state) = again.message else {
            throw TestClient.Failure(description: "expected the game again, got \(again)")
        }
        #expect(state.game == played.game && state.moves.count == 4 && again.id == nil)
        let watchedAgain = try await watcher.reply()
        guard case .watching(let watched) = watchedAgain.message else {
            throw TestClient.Failure(description: "expected the watched game again, got \(watchedAgain)")
        }
        #expect(watched.moves.count == 4 && watched.fen == played.position.fen)
        try await played.play(2)
        for ply in 5...6 {
            guard case .moved(let moved) = try await watcher.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == ply)
        }
        for node in two { await node.stop() }
    }
}
