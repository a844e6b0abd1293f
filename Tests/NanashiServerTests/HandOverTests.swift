import Foundation
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// The next message of `watcher`, which must be `watching`.
private func watching(_ watcher: TestClient) async throws -> WatchedGame {
    let reply = try await watcher.reply()
    guard case .watching(let game) = reply.message else {
        throw TestClient.Failure(description: "expected watching, got \(reply)")
    }
    return game
}

@Suite struct WatchersFollowTests {
    /// A game hosted by one of three nodes, with a watcher on each: its host is taken for dead
    /// and the third node, where neither player is, takes the game over. Every watcher, the old
    /// host's own included, gets the game again from the new host, then each next move and the
    /// end, as before.
    @Test func watchersOnEveryNodeFollowTheGameToItsNewHost() async throws {
        try requirePostgres()
        let url = try TestPostgres.database()
        let three = try await nodes(3, url: url)
        var played = try await PlayedGame(annServer: three[0], bobServer: three[1], plies: 4)
        let database = try await PostgresStorage.open(url)
        let host = try await hostingNode(of: played.game, in: database)
        var watchers: [TestClient] = []
        for node in three {
            let watcher = try node.client()
            watcher.send(#"{"type":"watch","game":\#(played.game),"id":"w"}"#)
            #expect(try await watching(watcher).moves.count == 4)
            watchers.append(watcher)
        }
        // Its heartbeat looks late to the third node, as when it waited behind a busy database.
        _ = try await database.rows("UPDATE node SET seen_at = 0 WHERE id = \(host)")
        await three[2].server!.lobby.takeOverGames()
        for side in Side.allCases {
            guard case .game(let state) = try await played.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected the game again")
            }
            #expect(state.moves.count == 4)
        }
        try await played.play(2)
        let resigner = played.position.sideToMove
        try await resign(played.clients[resigner]!, played.game, heardBy: Array(played.clients.values))
        for watcher in watchers {
            // The game again as it stood when the new host heard of the watcher (maybe after a
            // move or two), then the moves after it and the end.
            let again = try await watching(watcher)
            #expect(again.game == played.game && (4...6).contains(again.moves.count))
            for ply in (again.moves.count + 1)..<7 {
                guard case .moved(let moved) = try await watcher.reply().message else {
                    throw TestClient.Failure(description: "expected moved")
                }
                #expect(moved.ply == ply)
            }
            #expect(
                try await watcher.reply().message
                    == .watchedEnd(
                        WatchedEnd(
                            game: played.game,
                            outcome: Outcome(winner: resigner.opponent, reason: .resignation)))
            )
        }
        #expect(try await hostingNode(of: played.game, in: database) == 3)
        await database.close()
        for node in three { await node.stop() }
    }
}
