import Foundation
import Logging
import NanashiAI
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import NanashiStorage
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
        let url = try await postgresDatabase()
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

extension WatchersFollowTests {
    /// A takeover that claims a game but cannot read it lets the game go again (it was once
    /// left claimed by a live node that did not play it, frozen for good): the next takeover
    /// gets it, and its players play on.
    @Test func aTakeoverThatCannotReadItsGamesLetsThemGo() async throws {
        let url = try await postgresDatabase()
        let three = try await nodes(3, url: url)
        let played = try await PlayedGame(annServer: three[0], bobServer: three[1], plies: 2)
        let database = try await PostgresStorage.open(url)
        let host = try await hostingNode(of: played.game, in: database)
        _ = try await database.rows("UPDATE node SET seen_at = 0 WHERE id = \(host)")
        // The moves cannot be read: the claim succeeds, the reading after it fails.
        _ = try await database.rows("ALTER TABLE move RENAME TO move_held")
        await three[2].server!.lobby.takeOverGames()
        let hosts = try await database.rows("SELECT host FROM game WHERE id = \(played.game)")
        #expect(try hosts.map { try $0.decode(Int64?.self) } == [nil])
        _ = try await database.rows("ALTER TABLE move_held RENAME TO move")
        await three[2].server!.lobby.takeOverGames()
        #expect(try await hostingNode(of: played.game, in: database) == 3)
        for side in Side.allCases {
            guard case .game(let state) = try await played.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected the game again")
            }
            #expect(state.moves.count == 2)
        }
        await database.close()
        for node in three { await node.stop() }
    }
}

@Suite struct EndedElsewhereTests {
    /// A game that another node ended while this one still held it (the other took it over
    /// while this one looked dead, and it was resigned there): the next move here is refused
    /// by storage, and each player gets the `end` as stored, byte for byte what the node that
    /// ended it sent, once; both are back in the lobby.
    @Test func aGameEndedElsewhereEndsForItsPlayersHere() async throws {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock)
        let (url, two, host, relayed) = (setup.url, setup.servers, setup.host, setup.relayed)
        var played = setup.played
        let database = try await PostgresStorage.open(url)
        // The player relayed to the host is to move.
        if played.position.sideToMove != relayed { try await played.play(1) }

        // Another node takes the game over while the host looks dead, and x resigns there.
        let other = try await PostgresStorage.open(url)
        let otherNode = try await other.joinAsNode(now: clock.date)
        _ = try await database.rows("UPDATE node SET seen_at = 0 WHERE id = \(host)")
        #expect(try await other.claimGames(node: otherNode, aliveAfter: clock.date - 10) == [played.game])
        let resigned = Outcome(winner: .o, reason: .resignation)
        _ = try await other.finishGame(id: played.game, outcome: resigned, rated: true, now: clock.date) {
            _, _ in
            (
                Rating(rating: 1_400.4, deviation: 300, volatility: 0.06),
                Rating(rating: 1_599.6, deviation: 300, volatility: 0.06)
            )
        }
        await other.close()

        let move = greedyMove(played.position)
        played.clients[relayed]!.send(#"{"type":"move","game":\#(played.game),"move":"\#(move)","id":"m"}"#)
        let g = played.game
        let ends: [Side: String] = [
            .x:
                #"{"game":\#(g),"outcome":{"reason":"resign","winner":"o"},"rating":{"after":1400,"before":1500},"type":"end"}"#,
            .o:
                #"{"game":\#(g),"outcome":{"reason":"resign","winner":"o"},"rating":{"after":1600,"before":1500},"type":"end"}"#,
        ]
        // The move's refusal and the end, in whichever order they come.
        let lines = Set([
            try await played.clients[relayed]!.line(), try await played.clients[relayed]!.line(),
        ])
        #expect(
            lines == [
                #"{"code":"internal_error","id":"m","message":"the move could not be stored; play it again","type":"error"}"#,
                ends[relayed]!,
            ])
        #expect(try await played.clients[relayed.opponent]!.line() == ends[relayed.opponent]!)
        for side in Side.allCases {
            // Nothing more of that game, and both may seek again.
            let client = played.clients[side]!
            #expect(try await client.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
            let seek = try await client.exchange(#"{"type":"seek","initial":60,"increment":0}"#)
            #expect(seek == #"{"type":"seeking"}"#, "\(side == relayed ? "relayed" : "host's"): \(seek)")
            #expect(try await client.exchange(#"{"type":"cancel"}"#) == #"{"type":"cancelled"}"#)
        }
        let ratings = try await database.rows(
            "SELECT COUNT(*) FROM rating_change WHERE game_id = \(played.game)"
        ).first!.decode(Int.self)
        #expect(ratings == 2)
        await database.close()
        for node in two { await node.stop() }
    }
}

@Suite struct EngineGameFailoverTests {
    /// A game against the engine whose node dies just after storing the player's move, before
    /// the engine answered: its player logs in on another node, which takes the game over once
    /// the dead node's lease is over, seats the engine again and sends the player the game; the
    /// engine answers there, plays on, and the game ends once, unrated.
    @Test func aGameAgainstTheEngineGoesOnWhenItsHostDies() async throws {
        let url = try await postgresDatabase()
        let clock = TestClock()
        let two = try await nodes(2, url: url, clock: clock)
        let ann = try two[0].client()
        let token = try await register(ann, "ann")
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":1,"color":"x","initial":300,"increment":3}"#)
                == #"{"type":"seeking"}"#)
        guard case .start(let start) = try await ann.reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        var (position, plies) = (Position.start, 0)
        /// The next `moved`, which must be of the next ply.
        func nextMove(_ client: TestClient) async throws {
            plies += 1
            let reply = try await client.reply()
            guard case .moved(let moved) = reply.message, moved.ply == plies else {
                throw TestClient.Failure(description: "expected moved \(plies), got \(reply)")
            }
            position = try position.play(moved.move)
        }
        /// A move of ann's that takes none of the engine's pieces, so the game goes on.
        func quietMove() -> Move {
            position.legalMoves().first { position.captures(by: $0) == .empty } ?? position.legalMoves()[0]
        }
        /// Ann moves and the engine answers.
        func playAndHearTheEngine(_ client: TestClient) async throws {
            client.send(#"{"type":"move","game":\#(start.game),"move":"\#(quietMove())"}"#)
            try await nextMove(client)
            try await nextMove(client)
        }
        try await playAndHearTheEngine(ann)

        await two[0].server!.kill()
        #expect(try await ann.linesUntilClosed().isEmpty)
        // Ann's third move was stored just before the node died; the engine had not answered.
        let database = try await PostgresStorage.open(url)
        let third = quietMove()
        _ = try await database.rows(
            """
            INSERT INTO move (game_id, ply, notation, x_clock, o_clock, played_at)
            VALUES (\(start.game), 3, \(third.description), 303000, 300000, \(clock.date.timeIntervalSince1970))
            """)
        position = try position.play(third)
        plies = 3
        let back = try two[1].client()
        #expect(try await back.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        // The dead node's lease runs out; the survivor's next heartbeat takes its game.
        clock.advance(by: .seconds(11))
        guard case .game(let state) = try await back.reply().message else {
            throw TestClient.Failure(description: "expected the game again")
        }
        #expect(state.game == start.game && state.color == .x && state.opponent.name == "AI level 1")
        // The engine answers at once, maybe before ann has the game again.
        if state.moves.count == 3 {
            try await nextMove(back)
        } else {
            #expect(state.moves.count == 4)
            position = try position.play(state.moves[3])
            plies = 4
        }
        try await playAndHearTheEngine(back)
        back.send(#"{"type":"resign","game":\#(start.game),"id":"r"}"#)
        #expect(
            try await back.line()
                == #"{"game":\#(start.game),"id":"r","outcome":{"reason":"resign","winner":"o"},"rating":{"after":1500,"before":1500},"type":"end"}"#
        )
        let (moves, ratings, result, host) = try await database.rows(
            """
            SELECT (SELECT COUNT(*) FROM move WHERE game_id = \(start.game)),
                   (SELECT COUNT(*) FROM rating_change WHERE game_id = \(start.game)), result, host
            FROM game WHERE id = \(start.game)
            """
        ).first!.decode((Int, Int, String?, Int64?).self)
        #expect(moves == 6 && ratings == 0 && result == "o" && host == 2)
        await database.close()
        await two[1].stop()
    }
}

@Suite struct RelayedEndTests {
    /// A relayed player reads the `end` of their game and seeks at once: they may, though the
    /// host's word that the game ended (`ended`, sent after the line) has not come yet. Here a
    /// node of the test's own hosts the game and never sends that word.
    @Test func aRelayedPlayerMaySeekAsSoonAsTheyReadTheEnd() async throws {
        let url = try await postgresDatabase()
        let one = try await nodes(1, url: url)
        let ann = try one[0].client()
        _ = try await register(ann, "ann")  // player 1, on node 1
        let storage = try await PostgresStorage.open(url)
        let host = PostgresCluster(
            node: try await storage.joinAsNode(now: Date()), storage: storage, logger: .quiet)
        let sender = Task { await host.runSending() }
        let end = Wire.line(
            Reply(
                .end(
                    GameEnd(
                        game: 7, outcome: Outcome(winner: .o, reason: .resignation),
                        rating: RatingChange(before: 1500, after: 1490)))))
        host.send(.started(game: 7, player: 1, side: .x, host: host.node), to: 1)
        host.send(.line(to: .player(1), text: end), to: 1)
        #expect(try await ann.line() == end)
        #expect(
            try await ann.exchange(#"{"type":"seek","initial":60,"increment":0}"#) == #"{"type":"seeking"}"#)
        sender.cancel()
        await storage.close()
        await one[0].stop()
    }
}

@Suite struct GameNotHereTests {
    /// A node asks a node that does not hold a game for it (`present`, `watch`), as one does
    /// that missed `hosted` while it was not listening: while another live node hosts the game,
    /// the answer names that node (`hosted`), so that it asks there; once the game is over, the
    /// answer to `present` is the player's `end` as stored, then that it ended.
    @Test func aNodeAskedForAGameItDoesNotHoldSaysWhereItIs() async throws {
        let setup = try await GameAcrossNodes(plies: 2)
        let (url, two, host, played) = (setup.url, setup.servers, setup.host, setup.played)
        // Nodes and players are numbered from 1 in the order they started and registered.
        let other: Int64 = host == 1 ? 2 : 1
        let x: Int64 = played.names[.x] == "ann" ? 1 : 2
        // A node of the test's own, listening.
        let listening = try await ListeningNode(url: url)
        let asking = listening.link

        asking.send(.present(game: played.game, side: .x, player: x, node: asking.node), to: other)
        #expect(await listening.next() == .hosted(game: played.game, node: host))
        asking.send(.watch(game: played.game, watcher: 5, id: nil, node: asking.node), to: other)
        #expect(await listening.next() == .hosted(game: played.game, node: host))

        try await resign(played.clients[.x]!, played.game, heardBy: Array(played.clients.values))
        asking.send(.present(game: played.game, side: .x, player: x, node: asking.node), to: other)
        guard case .line(.player(x), let line)? = await listening.next() else {
            throw TestClient.Failure(description: "expected the end")
        }
        #expect(line.hasPrefix(#"{"game":\#(played.game),"outcome":{"reason":"resign","winner":"o"}"#))
        #expect(await listening.next() == .ended(game: played.game, player: x))
        await listening.stop()
        for node in two { await node.stop() }
    }
}

@Suite struct HandedOverGameTests {
    /// A game handed over to another node lets go of its players' outboxes: the engine's seat,
    /// which holds the game while it sits in it, no longer keeps it (and itself) alive, one of
    /// each per hand-over.
    @Test func aGameHandedOverIsFreedWithItsEngineSeat() async throws {
        let database = try TemporaryDatabase()
        let storage = try SQLiteStorage(path: database.path)
        let ann = try await storage.createPlayer(name: "ann", passwordHash: "-", now: Date(), token: nil)
        let control = TimeControl(initial: 60, increment: 0)
        let (engine, id) = try await storage.createEngineGame(
            playerID: ann.id!, side: .x, level: 1, control: control, now: Date())
        let pool = EnginePool(threads: 1, maximumWaiting: 4)
        weak var freed: Game?
        do {
            let seat = EngineSeat(
                level: Level(1)!, side: .o, game: id, pool: pool, clock: SystemClock(),
                logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() })
            let game = Game(
                id: id, control: control,
                players: [
                    .x: .init(id: ann.id!, name: "ann", rating: 1500),
                    .o: .init(id: engine.id!, name: engine.name, rating: 1500),
                ],
                outboxes: [.o: seat.outbox], isRated: false, storage: storage, settings: ServerSettings(),
                logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() }
            ) { _ in }
            seat.seat(in: game)
            freed = game
            let handedOver = await game.handOver()
            #expect(handedOver.watchers.isEmpty && handedOver.resignation == nil)
        }
        #expect(freed == nil)
    }
}
