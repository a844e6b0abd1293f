import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

@Suite struct ListeningAgainTests {
    /// The host of a game across two nodes loses its listening connection and listens again:
    /// whatever the other node sent it meanwhile is lost (the other node may have been cut off by
    /// the same outage, and its own `present` lost), so the other node presents its player and its
    /// watcher again, and each gets the game afresh; play goes on both ways.
    @Test func theOtherNodePresentsItsPlayersAgainToAHostThatListensAgain() async throws {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock)
        let (url, two, host, relayed) = (setup.url, setup.servers, setup.host, setup.relayed)
        var played = setup.played
        let watcher = try two[setup.otherIndex].client()
        let watch = #"{"type":"watch","game":\#(played.game),"id":"w"}"#
        let watching = try await watcher.exchange(watch)
        guard case .watching = try Wire.reply(fromLine: Array(watching.utf8)).message else {
            throw TestClient.Failure(description: "expected watching, got \(watching)")
        }

        try await cutListening(of: host, url: url, clock: clock)
        clock.advance(by: PostgresCluster.listenAgainAfter)

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

    /// A player on the other node moves while the host is not listening: the move is lost to
    /// the host. Once the host listens again, the player's node sends the move again, and it is
    /// played and answered once; play goes on.
    @Test func aMoveTheHostMissedIsSentAgainWhenItListens() async throws {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock)
        var played = setup.played
        if played.position.sideToMove != setup.relayed { try await played.play(1) }
        let lobby = setup.servers[setup.otherIndex].server!.lobby
        let link = try #require(await lobby.cluster as? PostgresCluster)
        try await cutListening(of: setup.host, url: setup.url, clock: clock)

        let move = greedyMove(played.position)
        let mover = played.clients[setup.relayed]!
        let sent = link.sentCount
        mover.send(#"{"type":"move","game":\#(played.game),"move":"\#(move)","id":"missed"}"#)
        // Notified, and heard by no one.
        while link.sentCount == sent { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: PostgresCluster.listenAgainAfter)

        // The game afresh (the player's node presents them again) and the move's answer, in
        // either order; one answer.
        var answered = false
        while !answered {
            let reply = try await mover.reply()
            switch reply.message {
            case .moved(let moved):
                #expect(reply.id == .string("missed") && moved.move == move)
                #expect(moved.ply == played.ply + 1)
                answered = true
            case .game: break
            default: Issue.record("unexpected \(reply)")
            }
        }
        played.position = try played.position.play(move)
        played.ply += 1
        try await played.play(2, skippingStates: true)
        let check = try await PostgresStorage.open(setup.url)
        let stored = try await check.rows("SELECT COUNT(*) FROM move WHERE game_id = \(played.game)").first!
            .decode(Int.self)
        #expect(stored == played.ply)
        await check.close()
        for node in setup.servers { await node.stop() }
    }

    /// A host given a relayed move twice (sent again, as when the host was thought not to be
    /// listening, though it was) plays it once and answers it once.
    @Test func aMoveSentTwiceIsPlayedOnce() async throws {
        let setup = try await GameAcrossNodes(plies: 4)
        var played = setup.played
        if played.position.sideToMove != setup.relayed { try await played.play(1) }
        let lobby = setup.servers[setup.hostIndex].server!.lobby
        let link = try #require(await lobby.cluster as? PostgresCluster)
        let node = Int64(setup.otherIndex + 1)
        // Players are numbered from 1 in the order they registered: ann, then bob.
        let player: Int64 = played.names[setup.relayed] == "ann" ? 1 : 2
        let move = greedyMove(played.position)
        let twice = NodeMessage.move(
            game: played.game, side: setup.relayed, player: player, move: move.description,
            id: .string("twice"),
            node: node, relay: 1_000)
        await lobby.received(twice)
        await lobby.received(twice)
        let mover = played.clients[setup.relayed]!
        let answer = try await mover.reply()
        guard case .moved(let moved) = answer.message else {
            throw TestClient.Failure(description: "expected moved, got \(answer)")
        }
        #expect(answer.id == .string("twice") && moved.ply == played.ply + 1)
        // What the host sends that player next comes right after: no second answer between.
        let marker = #"{"id":"after","type":"pong"}"#
        link.send(.line(to: .player(player), text: marker), to: node)
        #expect(try await mover.line() == marker)
        for node in setup.servers { await node.stop() }
    }
}

/// Cuts the listening connection of `node` on the database at `url` (this test's database
/// only: other tests' nodes, numbered from 1 too, share the cluster), and returns once the node
/// waits on `clock` to listen again.
func cutListening(of node: Int64, url: String, clock: TestClock) async throws {
    let database = try await PostgresStorage.open(url)
    let cut = try await database.rows(
        """
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = \(PostgresCluster.listenerName(of: node))
        """
    )
    await database.close()
    #expect(cut.count == 1)
    try await clock.waitForTimer(until: clock.now + PostgresCluster.listenAgainAfter)
}
