import Foundation
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

@Suite struct LatePresentTests {
    /// A player's node says they are there (`present`, as when they log in again) just as their
    /// game ends on its host, and the word arrives after the end: the host, which no longer
    /// holds the game, answers with its end as stored. The player had that end already and does
    /// not get it twice; they are free to seek.
    @Test func aPresentAfterTheEndGivesNoSecondEnd() async throws {
        let setup = try await GameAcrossNodes(plies: 2)
        let (two, host, played, side) = (setup.servers, setup.host, setup.played, setup.relayed)
        // Nodes and players are numbered from 1: the player on the node that does not host the
        // game has that node's number.
        let node = host == 1 ? Int64(2) : 1
        let player = node
        try await resign(played.clients[.x]!, played.game, heardBy: Array(played.clients.values))
        let lobby = two[Int(host) - 1].server!.lobby
        while await lobby.isInProgress(played.game) { try await Task.sleep(for: .milliseconds(1)) }
        let link = try #require(await lobby.cluster as? PostgresCluster)
        let before = link.queuedCount
        await lobby.received(.present(game: played.game, side: side, player: player, node: node))
        // Its answer (the end as stored, and that the game ended) is on its way; a line after it.
        while link.queuedCount < before + 2 { try await Task.sleep(for: .milliseconds(1)) }
        let marker = #"{"id":"after","type":"pong"}"#
        link.send(.line(to: .player(player), text: marker), to: node)
        let client = played.clients[side]!
        #expect(try await client.line() == marker)
        #expect(
            try await client.exchange(#"{"type":"seek","initial":300,"increment":3}"#)
                == #"{"type":"seeking"}"#)
        for node in two { await node.stop() }
    }
}

@Suite struct MoveDuringTakeOverTests {
    /// A node takes over a game whose host died; the node of one of its players hears `hosted`,
    /// and that player's move, relayed to the new host, arrives there before their node's
    /// `present`. The move waits for it: the player gets the game as stored, then their move
    /// played, answering its id, never `no_such_game`.
    @Test func aMoveRelayedBeforeThePlayerIsPresentWaitsForThem() async throws {
        let url = try await postgresDatabase()
        let one = try await nodes(1, url: url)
        let lobby = one[0].server!.lobby
        let newHost = try #require(await lobby.cluster as? PostgresCluster).node
        // The node that hosted the game, bob (x) against ann, two moves in; then it died.
        let dead = try await PostgresStorage.open(url)
        let now = Date()
        let deadNode = try await dead.joinAsNode(now: now)
        let ann = try await dead.createPlayer(name: "ann", passwordHash: "h", now: now, token: nil)
        let bob = try await dead.createPlayer(name: "bob", passwordHash: "h", now: now, token: nil)
        let (annID, bobID) = (try #require(ann.id), try #require(bob.id))
        let id = try await dead.createGame(xID: bobID, oID: annID, control: .standard, now: now)
        var position = Position.start
        for ply in 1...2 {
            let move = greedyMove(position)
            try await dead.recordMove(
                gameID: id, ply: ply, move: move, clocks: Clocks(x: 300_000, o: 300_000), now: now)
            position = try position.play(move)
        }
        _ = try await dead.rows("UPDATE node SET seen_at = 0 WHERE id = \(deadNode)")
        await dead.close()
        // Bob's node, the test's own, listening.
        let listening = try await ListeningNode(url: url)
        let bobsNode = listening.link

        await lobby.takeOverGames()
        #expect(await listening.next() == .hosted(game: id, node: newHost))
        let move = greedyMove(position)
        bobsNode.send(
            .move(
                game: id, side: .x, player: bobID, move: move.description, id: .string("m3"),
                node: bobsNode.node, relay: 1),
            to: newHost)
        bobsNode.send(.present(game: id, side: .x, player: bobID, node: bobsNode.node), to: newHost)
        guard case .line(.player(bobID), let stateLine)? = await listening.next(),
            case .game(let state) = try Wire.reply(fromLine: Array(stateLine.utf8)).message
        else {
            throw TestClient.Failure(description: "expected the game")
        }
        #expect(state.game == id && state.moves.count == 2 && state.color == .x)
        guard case .line(.player(bobID), let movedLine)? = await listening.next() else {
            throw TestClient.Failure(description: "expected the move's answer")
        }
        let reply = try Wire.reply(fromLine: Array(movedLine.utf8))
        guard case .moved(let moved) = reply.message else {
            throw TestClient.Failure(description: "expected moved, got \(movedLine)")
        }
        #expect(reply.id == .string("m3") && moved.ply == 3 && moved.move == move)
        await listening.stop()
        await one[0].stop()
    }
}
