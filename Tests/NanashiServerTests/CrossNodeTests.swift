import Foundation
import Logging
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import PostgresNIO
import Testing

@testable import NanashiServer

/// Skips a test, saying why, when there is no PostgreSQL to test against: a warning, so the run
/// says why (a cancelled test alone reads as passed).
func requirePostgres() async throws {
    if let why = await TestPostgres.unavailable {
        Issue.record(Comment(rawValue: why), severity: .warning)
        try Test.cancel(Comment(rawValue: why))
    }
}

/// A new database on the test server and the URL to it; skips the test, as `requirePostgres`
/// does, without PostgreSQL.
func postgresDatabase() async throws -> String {
    try await requirePostgres()
    return try await TestPostgres.database()
}

/// Servers on one new PostgreSQL database, on one test clock.
func nodes(
    _ count: Int, url: String? = nil, clock: TestClock = TestClock(), lease: Duration = .seconds(10),
    log: CapturedLog? = nil
) async throws -> [TestServer] {
    let url = if let url { url } else { try await TestPostgres.database() }
    var servers: [TestServer] = []
    for index in 0..<count {
        let logger = log.map { log in Logger(label: "node \(index + 1)") { log.handler(label: $0) } }
        servers.append(
            try await TestServer(logger: logger ?? .quiet) {
                $0.databasePath = url
                $0.clock = clock
                $0.nodeLease = lease
            })
    }
    return servers
}

/// The node that hosts `game` (nodes are numbered from 1 in the order they started).
func hostingNode(of game: Int64, in database: PostgresStorage) async throws -> Int64 {
    try await database.rows("SELECT host FROM game WHERE id = \(game)").first!.decode(Int64.self)
}

/// The node that hosts `game`, asked through a connection of its own to the database at `url`.
func hostingNode(of game: Int64, url: String) async throws -> Int64 {
    let database = try await PostgresStorage.open(url)
    do {
        let host = try await hostingNode(of: game, in: database)
        await database.close()
        return host
    } catch {
        await database.close()
        throw error
    }
}

/// A game played with `greedyMove` for `plies` plies, a request id on each move: ann on
/// `annServer`, bob on `bobServer`.
struct PlayedGame {
    var game: Int64
    var clients: [Side: TestClient]
    var names: [Side: String]
    var tokens: [Side: String]
    var position: Position
    var ply = 0
    /// Every line each side got, the game's id written `G` so that games of two databases compare.
    var lines: [Side: [String]]

    init(annServer: TestServer, bobServer: TestServer, plies: Int) async throws {
        let ann = try annServer.client()
        let bob = try bobServer.client()
        let annToken = try await register(ann, "ann")
        let bobToken = try await register(bob, "bob")
        let seek = #"{"type":"seek","initial":300,"increment":3}"#
        #expect(try await ann.exchange(seek) == #"{"type":"seeking"}"#)
        #expect(try await bob.exchange(seek) == #"{"type":"seeking"}"#)
        let annStart = try await ann.line()
        let bobStart = try await bob.line()
        guard case .start(let start) = try Wire.reply(fromLine: Array(annStart.utf8)).message else {
            throw TestClient.Failure(description: "expected start, got \(annStart)")
        }
        game = start.game
        clients = [start.color: ann, start.color.opponent: bob]
        names = [start.color: "ann", start.color.opponent: "bob"]
        tokens = [start.color: annToken, start.color.opponent: bobToken]
        lines = [start.color: [annStart], start.color.opponent: [bobStart]]
        position = .start
        try await play(plies)
    }

    /// Plays `plies` more plies; `skippingStates`: a `game` line (the whole game, sent again
    /// after a node listens again) may come before a `moved` and is passed over.
    mutating func play(_ plies: Int, skippingStates: Bool = false) async throws {
        for _ in 0..<plies {
            let move = greedyMove(position)
            ply += 1
            clients[position.sideToMove]!.send(
                #"{"type":"move","game":\#(game),"move":"\#(move)","id":"m\#(ply)"}"#)
            for side in Side.allCases {
                var line = try await clients[side]!.line()
                while skippingStates, line.contains(#""type":"game""#) {
                    line = try await clients[side]!.line()
                }
                lines[side]!.append(line.replacingOccurrences(of: #""game":\#(game)"#, with: #""game":G"#))
            }
            position = try position.play(move)
        }
    }

    /// The side to move resigns, and both players get the `end` that says so.
    func resign() async throws {
        let resigner = position.sideToMove
        clients[resigner]!.send(#"{"type":"resign","game":\#(game)}"#)
        for side in Side.allCases {
            guard case .end(let end) = try await clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected end")
            }
            #expect(end.outcome == Outcome(winner: resigner.opponent, reason: .resignation))
        }
    }
}

/// A game across two new nodes on one new database, `plies` into it: ann on node 1, bob on
/// node 2 (nodes and players are numbered from 1 in the order they started and registered).
struct GameAcrossNodes {
    let place: NodesPlace
    /// PostgreSQL's database (on `.postgres`).
    var url: String { place.url! }
    let servers: [TestServer]
    let played: PlayedGame
    /// The number of the node that hosts the game.
    let host: Int64

    init(
        plies: Int, clock: TestClock = TestClock(), lease: Duration = .seconds(10),
        on backend: NodesBackend = .postgres
    ) async throws {
        place = try await NodesPlace(backend)
        servers = try await place.nodes(2, clock: clock, lease: lease)
        played = try await PlayedGame(annServer: servers[0], bobServer: servers[1], plies: plies)
        host = try await place.host(of: played.game)
    }

    /// The indexes in `servers` of the host and of the other node.
    var hostIndex: Int { Int(host) - 1 }
    var otherIndex: Int { 2 - Int(host) }
    /// The side of the player on the other node, whose requests are relayed to the host.
    var relayed: Side { played.names.first { $0.value == (host == 1 ? "bob" : "ann") }!.key }
}

@Suite struct CrossNodeTests {
    /// Two players seeking on two nodes are paired, and every line each gets is byte for byte
    /// what they get when both play on one node; a watcher on either node sees the moves, and
    /// `live` on both nodes lists the game.
    @Test(arguments: NodesBackend.allCases) func playersOnTwoNodesPlayAsOnOne(_ backend: NodesBackend)
        async throws
    {
        let one = try await NodesPlace(backend).nodes(1)
        let single = try await PlayedGame(annServer: one[0], bobServer: one[0], plies: 6)
        await one[0].stop()

        let two = try await NodesPlace(backend).nodes(2)
        var crossing = try await PlayedGame(annServer: two[0], bobServer: two[1], plies: 6)
        for side in Side.allCases {
            // Colours are drawn at random; `start` names the opponent, the rest is the same.
            let skip = crossing.names == single.names ? 0 : 1
            #expect(crossing.lines[side]!.dropFirst(skip) == single.lines[side]!.dropFirst(skip))
            #expect(crossing.lines[side]!.count == 7)
        }

        let (x, o) = (crossing.names[.x]!, crossing.names[.o]!)
        let expectedLive =
            #"{"games":[{"game":\#(crossing.game),"increment":3,"initial":300,"o":{"name":"\#(o)","rating":1500},"ply":6,"#
            + #""x":{"name":"\#(x)","rating":1500}}],"type":"live"}"#
        var watchers: [TestClient] = []
        for node in two {
            #expect(try await node.client().exchange(#"{"type":"live"}"#) == expectedLive)
            let watcher = try node.client()
            let watching = try await watcher.exchange(#"{"type":"watch","game":\#(crossing.game),"id":"w"}"#)
            guard case .watching(let state) = try Wire.reply(fromLine: Array(watching.utf8)).message else {
                throw TestClient.Failure(description: "expected watching, got \(watching)")
            }
            #expect(state.moves.count == 6 && state.x.name == x && state.fen == crossing.position.fen)
            watchers.append(watcher)
        }
        try await crossing.play(2)
        for watcher in watchers {
            for ply in 7...8 {
                guard case .moved(let moved) = try await watcher.reply().message else {
                    throw TestClient.Failure(description: "expected moved")
                }
                #expect(moved.ply == ply && moved.legal == nil)
            }
        }
        // A request id as long as one may be travels with the move both ways, whichever
        // player the host relays.
        for _ in 0..<2 {
            let id = String(repeating: "i", count: RequestID.longestText)
            let mover = crossing.position.sideToMove
            let move = greedyMove(crossing.position)
            crossing.clients[mover]!.send(
                #"{"type":"move","game":\#(crossing.game),"move":"\#(move)","id":"\#(id)"}"#)
            let reply = try await crossing.clients[mover]!.reply()
            guard case .moved(let moved) = reply.message else {
                throw TestClient.Failure(description: "\(reply)")
            }
            #expect(reply.id == .string(id) && moved.move == move)
            _ = try await crossing.clients[mover.opponent]!.line()
            crossing.position = try crossing.position.play(move)
        }
        // What one node says to another is no client's message.
        let forged = #"{"line":{"to":{"player":{"_0":1}},"text":"{\"type\":\"bye\"}"}}"#
        #expect(try await two[1].client().exchange(forged).contains(#""type":"error""#))
        await two[0].stop()
        await two[1].stop()
    }
}

@Suite struct RelayAttackTests {
    /// A move with a request id PostgreSQL cannot hold (a NUL) is refused with `bad_request`
    /// before it reaches another node, and the game goes on both ways at once after it.
    @Test(arguments: NodesBackend.allCases) func aRequestIDWithANulDoesNotJamTheRelay(_ backend: NodesBackend)
        async throws
    {
        let across = try await GameAcrossNodes(plies: 2, on: backend)
        var played = across.played
        for side in [across.relayed, across.relayed.opponent] {
            let line = #"{"type":"move","game":\#(played.game),"move":"a1","id":"\u0000"}"#
            let reply = try await played.clients[side]!.exchange(line)
            #expect(reply.contains(#""code":"bad_request""#), "\(reply)")
            #expect(!reply.contains(#""id""#))
        }
        try await played.play(4)
        #expect(played.ply == 6)
        for server in across.servers { await server.stop() }
    }
}

@Suite struct SessionsAcrossNodesTests {
    /// A player who logs in on another node while connected to one: the older connection is told
    /// `superseded` and closed, as on one node, and its seek leaves the pool, while a seek from
    /// the newer one stays.
    @Test(arguments: NodesBackend.allCases) func aLoginOnAnotherNodeSupersedesTheConnectionHere(
        _ backend: NodesBackend
    ) async throws {
        let place = try await NodesPlace(backend)
        let two = try await place.nodes(2)
        let first = try two[0].client()
        let token = try await register(first, "ann")
        #expect(
            try await first.exchange(#"{"type":"seek","initial":300,"increment":3}"#)
                == #"{"type":"seeking"}"#)
        let second = try two[1].client()
        #expect(try await second.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        #expect(try await first.linesUntilClosed() == [#"{"type":"superseded"}"#])
        // Before login tickets this failed once in 14 loaded runs: node 1's late word of ann's
        // first login superseded this newer connection (`aLateWordOfAnOlderLoginSupersedesNothing`).
        let reply = try await second.exchange(#"{"type":"seek","initial":300,"increment":3}"#)
        #expect(reply == #"{"type":"seeking"}"#)
        #expect(try await place.seekNodes() == [2])
        for node in two { await node.stop() }
    }
}

extension SessionsAcrossNodesTests {
    /// A logout is told to every node: another node closes the player's connection on that
    /// token (with `bye`), or on any token after a logout everywhere, so a login there a moment
    /// before the logout does not live on on a deleted token.
    @Test func aLogoutClosesTheSessionOnEveryNode() async throws {
        let url = try await postgresDatabase()
        let two = try await nodes(2, url: url)
        let listener = try await ListeningNode(url: url)
        let first = try two[0].client()
        let token = try await register(first, "ann")  // player 1, on node 1
        #expect(try await first.exchange(#"{"type":"logout","id":1}"#) == #"{"id":1,"type":"bye"}"#)
        let digest = try #require(SessionToken.digest(of: token))
        #expect(await listener.next() == .loggedOut(player: 1, digest: digest, node: 1))
        // Node 2 hears of logouts elsewhere: one on another token leaves its connection alone.
        let second = try two[1].client()
        let other = try await login(second, "ann")
        let otherDigest = try #require(SessionToken.digest(of: other))
        listener.link.send(.loggedOut(player: 1, digest: digest, node: listener.link.node), to: 2)
        listener.link.send(.line(to: .player(1), text: #"{"type":"pong"}"#), to: 2)
        #expect(try await second.line() == #"{"type":"pong"}"#)
        listener.link.send(.loggedOut(player: 1, digest: otherDigest, node: listener.link.node), to: 2)
        #expect(try await second.linesUntilClosed() == [#"{"type":"bye"}"#])
        // Everywhere: every connection of the player, whatever its token.
        let third = try two[1].client()
        _ = try await login(third, "ann")
        listener.link.send(.loggedOut(player: 1, digest: nil, node: listener.link.node), to: 2)
        #expect(try await third.linesUntilClosed() == [#"{"type":"bye"}"#])
        await listener.stop()
        for node in two { await node.stop() }
    }

    /// A seek for a person lapses when the player seeks the computer, on PostgreSQL too: its
    /// shared row goes, so no node pairs it once the game against the computer ends.
    @Test func seekingTheComputerTakesTheSharedSeekAway() async throws {
        let url = try await postgresDatabase()
        let one = try await nodes(1, url: url)
        let ann = try one[0].client()
        _ = try await register(ann, "ann")
        #expect(
            try await ann.exchange(#"{"type":"seek","initial":300,"increment":3}"#) == #"{"type":"seeking"}"#)
        let database = try await PostgresStorage.open(url)
        #expect(try await database.rows("SELECT player_id FROM seek").count == 1)
        #expect(
            try await ann.exchange(#"{"type":"seek","ai":1,"color":"x","initial":60,"increment":0}"#)
                == #"{"type":"seeking"}"#)
        #expect(try await ann.line().contains(#""type":"start""#))
        #expect(try await database.rows("SELECT player_id FROM seek").isEmpty)
        await database.close()
        await one[0].stop()
    }

    /// A game hosted by one node is in progress for every node's pages (`/game/G` once answered
    /// 404 on the nodes that did not host it), and no longer once it ended.
    @Test(arguments: NodesBackend.allCases) func aGameHostedElsewhereIsInProgressForEveryNode(
        _ backend: NodesBackend
    ) async throws {
        let place = try await NodesPlace(backend)
        let two = try await place.nodes(2)
        let played = try await PlayedGame(annServer: two[0], bobServer: two[1], plies: 2)
        let host = Int(try await place.host(of: played.game)) - 1
        let other = two[1 - host].server!.lobby
        #expect(await !other.isInProgress(played.game))
        #expect(await other.isInProgressAnywhere(played.game))
        #expect(await two[host].server!.lobby.isInProgressAnywhere(played.game))
        #expect(await !other.isInProgressAnywhere(played.game + 1))
        try await resign(played.clients[.x]!, played.game, heardBy: Array(played.clients.values))
        #expect(await !other.isInProgressAnywhere(played.game))
        for node in two { await node.stop() }
    }

    /// Notifications may arrive late: a message about an older login elsewhere (a smaller
    /// ticket) supersedes no newer connection; one about a newer login does.
    @Test func aLateWordOfAnOlderLoginSupersedesNothing() async throws {
        let url = try await postgresDatabase()
        let two = try await nodes(2, url: url)
        let first = try two[0].client()
        let token = try await register(first, "ann")  // player 1, on node 1
        let second = try two[1].client()
        #expect(try await second.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        #expect(try await first.linesUntilClosed() == [#"{"type":"superseded"}"#])
        // A third node speaks to node 2 on its own channel, where messages keep their order.
        let storage = try await PostgresStorage.open(url)
        let link = PostgresCluster(
            node: try await storage.joinAsNode(now: Date()), storage: storage, logger: .quiet)
        let sender = Task { await link.runSending() }
        let marker = #"{"id":"after","type":"pong"}"#
        link.send(.loggedIn(player: 1, node: link.node, ticket: 1), to: 2)
        link.send(.line(to: .player(1), text: marker), to: 2)
        #expect(try await second.line() == marker)
        #expect(try await second.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        link.send(.loggedIn(player: 1, node: link.node, ticket: .max), to: 2)
        #expect(try await second.linesUntilClosed() == [#"{"type":"superseded"}"#])
        sender.cancel()
        await storage.close()
        for node in two { await node.stop() }
    }
}

extension SessionsAcrossNodesTests {
    /// A login's `welcome` goes out only once its ticket is drawn, and nothing reaches the new
    /// connection before it: so a client that heard `welcome` and logs in on another node draws
    /// a larger ticket there, and its newer connection is the one that stays. (Before, `welcome`
    /// went out first: a slow draw here gave this older login the larger ticket, the newer
    /// connection was the one superseded, and this one lived on.)
    @Test func aLoginsWelcomeWaitsForItsTicket() async throws {
        let url = try await postgresDatabase()
        let one = try await nodes(1, url: url)
        let bob = try one[0].client()
        _ = try await register(bob, "bob")
        let storage = try await PostgresStorage.open(url)
        let logger = storage.logger
        // Another connection holds the ticket sequence: the login's draw waits for it.
        let locker = try await PostgresConnection.connect(
            configuration: storage.configuration, id: 97, logger: logger)
        try await locker.query("BEGIN", logger: logger)
        try await locker.query("ALTER SEQUENCE login_ticket INCREMENT BY 1", logger: logger)
        let ann = try one[0].client()
        ann.send(#"{"type":"register","name":"ann","password":"password1"}"#)
        // Asked outside the locker's transaction, which would see the same activity each time.
        let waiting: PostgresQuery = """
            SELECT COUNT(*) FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND query LIKE '%nextval%login_ticket%'
            """
        while try await storage.rows(waiting).first!.decode(Int.self) == 0 {
            try await Task.sleep(for: .milliseconds(5))
        }
        // A line for ann from another node while her ticket is drawn reaches no connection; the
        // line for bob after it, on the same channel, shows that it was handled.
        let annID = try await storage.rows("SELECT id FROM player WHERE name = 'ann'").first!.decode(
            Int64.self)
        let bobID = try await storage.rows("SELECT id FROM player WHERE name = 'bob'").first!.decode(
            Int64.self)
        let link = PostgresCluster(
            node: try await storage.joinAsNode(now: Date()), storage: storage, logger: .quiet)
        let sender = Task { await link.runSending() }
        link.send(.line(to: .player(annID), text: #"{"id":"early","type":"pong"}"#), to: 1)
        link.send(.line(to: .player(bobID), text: #"{"id":"after","type":"pong"}"#), to: 1)
        #expect(try await bob.line() == #"{"id":"after","type":"pong"}"#)
        try await locker.query("ROLLBACK", logger: logger)
        #expect(try await ann.line().contains(#""type":"welcome""#))
        #expect(try await ann.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        sender.cancel()
        try await locker.close()
        await storage.close()
        await one[0].stop()
    }
}

@Suite struct RelayedPlayerTests {
    /// A player whose game another node hosts leaves: the host gives them the grace period;
    /// they come back on their node and get the game from the host; they leave again and do not
    /// come back: the host ends the game by abandonment and their opponent hears it.
    @Test(arguments: NodesBackend.allCases) func aRelayedPlayerLeavesComesBackAndAbandons(
        _ backend: NodesBackend
    )
        async throws
    {
        let clock = TestClock()
        // A lease longer than the test's time, so that neither node is taken for dead.
        let setup = try await GameAcrossNodes(plies: 2, clock: clock, lease: .seconds(3_600), on: backend)
        let (two, relayed) = (setup.servers, setup.relayed)
        var played = setup.played
        let relayedNode = two[setup.otherIndex]
        played.clients[relayed]!.close()
        let back = try relayedNode.client()
        #expect(
            try await back.exchange(#"{"type":"auth","token":"\#(played.tokens[relayed]!)"}"#).contains(
                "welcome"))
        guard case .game(let state) = try await back.reply().message else {
            throw TestClient.Failure(description: "expected the game")
        }
        #expect(state.game == played.game && state.moves.count == 2 && state.color == relayed)
        played.clients[relayed] = back
        try await played.play(2)
        // A second away from the first grace period's end, so that the test waits for the
        // second one's timer, not the first's.
        clock.advance(by: .seconds(1))
        back.close()
        // Wait for the host to have heard that the player left (its grace timer armed), then
        // let the grace run out.
        try await clock.advanceWhenArmed(by: .seconds(30))
        guard case .end(let end) = try await played.clients[relayed.opponent]!.reply().message else {
            throw TestClient.Failure(description: "expected the end")
        }
        #expect(end.outcome == Outcome(winner: relayed.opponent, reason: .abandonment))
        for node in two { await node.stop() }
    }
}

@Suite struct FailoverTests {
    /// The node hosting a game dies (its sockets and database connections closed at once, its
    /// games left as they are): its player logs in on the other node with their token; once the
    /// dead node's lease is over, that node takes the game over from its stored moves, the side
    /// to move charged nothing for the time the game had no host (11 s of a 300 s clock here),
    /// and both players get the game again and play on. The game ends once and is rated once.
    @Test(arguments: NodesBackend.allCases) func aGameGoesOnWhenItsHostDies(_ backend: NodesBackend)
        async throws
    {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock, on: backend)
        let two = setup.servers
        var played = setup.played
        let (dying, surviving) = (setup.hostIndex, setup.otherIndex)
        let moverName = dying == 0 ? "ann" : "bob"
        let mover = played.names.first { $0.value == moverName }!.key
        let lastLine = played.lines[.x]!.last!.replacingOccurrences(
            of: #""game":G"#, with: #""game":\#(played.game)"#)
        guard case .moved(let last) = try Wire.reply(fromLine: Array(lastLine.utf8)).message else {
            throw TestClient.Failure(description: "expected moved")
        }

        // A watcher on the surviving node, of the game the other node hosts.
        let watcher = try two[surviving].client()
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(played.game),"id":"w"}"#).contains(
                #""id":"w""#))

        await two[dying].server!.kill()
        #expect(try await played.clients[mover]!.linesUntilClosed().isEmpty)
        let back = try two[surviving].client()
        #expect(
            try await back.exchange(#"{"type":"auth","token":"\#(played.tokens[mover]!)"}"#).contains(
                "welcome"))
        played.clients[mover] = back

        // The dead node's lease runs out; the survivor's next heartbeat takes its game.
        clock.advance(by: .seconds(11))
        let charged = last.clock
        for side in Side.allCases {
            guard case .game(let state) = try await played.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected the game again")
            }
            #expect(state.game == played.game && state.moves.count == 4 && state.clock == charged)
        }
        let before = played.lines[.x]!.count
        try await played.play(2)
        #expect(played.lines[.x]!.count == before + 2)
        // The watcher followed the game to its new host: the game again (as it stood when the
        // new host heard of the watcher, maybe after a move or two), then the moves after it.
        guard case .watching(let again) = try await watcher.reply().message else {
            throw TestClient.Failure(description: "expected the watched game again")
        }
        #expect(again.game == played.game && (4...6).contains(again.moves.count))
        for ply in (again.moves.count + 1)..<7 {
            guard case .moved(let moved) = try await watcher.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == ply)
        }
        try await played.resign()
        // Rated once: one game in each player's record.
        let database = try await setup.place.storage()
        for name in ["ann", "bob"] { #expect(try await database.player(named: name)?.games == 1) }
        await database.close()
        await two[surviving].stop()
    }
}

extension FailoverTests {
    /// A move relayed to the game's host just as that host dies is lost with it: once another
    /// node takes the game over, the mover is told so (an error on the move's id), then gets the
    /// game as stored, without the move, and plays it again.
    @Test(arguments: NodesBackend.allCases) func aMoveRelayedToAHostThatDiedIsAnsweredOnceTheGameIsBack(
        _ backend: NodesBackend
    ) async throws {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock, on: backend)
        let (two, relayed) = (setup.servers, setup.relayed)
        var played = setup.played
        let (dying, surviving) = (setup.hostIndex, setup.otherIndex)
        // The relayed player is to move.
        if played.position.sideToMove != relayed { try await played.play(1) }
        let plies = played.ply

        await two[dying].server!.kill()
        #expect(try await played.clients[relayed.opponent]!.linesUntilClosed().isEmpty)
        let move = greedyMove(played.position)
        played.clients[relayed]!.send(
            #"{"type":"move","game":\#(played.game),"move":"\#(move)","id":"lost"}"#)
        let back = try two[surviving].client()
        #expect(
            try await back.exchange(#"{"type":"auth","token":"\#(played.tokens[relayed.opponent]!)"}"#)
                .contains(
                    "welcome"))
        played.clients[relayed.opponent] = back
        // The move has gone to the dead host (else, taken over first, the game would play it):
        // the mover's node waits for its answer. (Players are numbered 1, ann, and 2, bob.)
        let mover: Int64 = played.names[relayed] == "ann" ? 1 : 2
        while await two[surviving].server!.lobby.crossing.seats[mover]?.unanswered == nil {
            try await Task.sleep(for: .milliseconds(1))
        }

        // The dead node's lease runs out; the survivor's next heartbeat takes its game.
        clock.advance(by: .seconds(11))
        let lost = try await played.clients[relayed]!.reply()
        #expect(lost.id == .string("lost"))
        #expect(lost.message == .error(Lobby.lostRequest))
        for side in Side.allCases {
            guard case .game(let state) = try await played.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected the game again")
            }
            #expect(state.game == played.game && state.moves.count == plies)
        }
        // Played again, it is played.
        try await played.play(1)
        #expect(played.lines[relayed]!.last!.contains(#""move":"\#(move)""#))
        await two[surviving].stop()
    }
}

@Suite struct DatabaseOutageTests {
    /// What the nodes logged (postgres-nio's tracing of each message left out), shown when a
    /// step fails.
    private let log = CapturedLog(level: .info)

    /// Runs one step of the scenario; an error it throws (a client's read timing out) names the
    /// step and carries the end of the nodes' log.
    private func named<T>(_ step: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            let tail = log.text.split(separator: "\n").suffix(80).joined(separator: "\n")
            throw TestClient.Failure(
                description: "\(step): \(error)\nthe nodes' log, its last 80 lines:\n\(tail)")
        }
    }

    /// PostgreSQL stops (`pg_ctl stop -m fast`) in the middle of a game between two nodes: a
    /// move meanwhile is refused and not stored, neither node falls over, and once PostgreSQL is
    /// back the same move is accepted and play goes on both ways; every move acknowledged is
    /// stored, and no other.
    @Test func playGoesOnWhenPostgreSQLIsBack() async throws {
        try await requirePostgres()
        let cluster: TestPostgres.OwnCluster
        do {
            cluster = try await TestPostgres.ownCluster()
        } catch {
            Issue.record(Comment(rawValue: "skipped: \(error)"), severity: .warning)
            try Test.cancel(Comment(rawValue: "\(error)"))
        }
        let url = try await cluster.database()
        let clock = TestClock()
        let two = try await nodes(2, url: url, clock: clock, log: log)
        var played = try await PlayedGame(annServer: two[0], bobServer: two[1], plies: 4)
        let host = try await hostingNode(of: played.game, url: url)
        // The move during the outage is made on the host's own node (a relayed one would wait
        // in its node's queue and be played once PostgreSQL is back).
        if played.names[played.position.sideToMove] != (host == 1 ? "ann" : "bob") {
            try await played.play(1)
        }
        let mover = played.position.sideToMove
        let move = greedyMove(played.position)
        let line = #"{"type":"move","game":\#(played.game),"move":"\#(move)","id":"again"}"#

        try await cluster.stop()
        played.clients[mover]!.send(line)
        // Nothing that needs no database waits for it meanwhile.
        for node in two {
            #expect(try await node.client().exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        }
        // The outage's length is the scenario's (5 s), not a timeout being proven.
        try await Task.sleep(for: .seconds(5))
        try await cluster.start()
        // Each node opens its listening connection again after a pause on the test clock.
        try await named("listening again") { try await listenAgain([1, 2], url: url, clock: clock) }

        // The move waited for the database and was stored, or was refused and is sent again
        // until it is: either way it is acknowledged once, and only once stored.
        var accepted = false
        for _ in 0..<100 where !accepted {
            let reply = try await named("the outage move's answer") {
                try await played.clients[mover]!.line()
            }
            accepted = reply.contains(#""type":"moved""#) && reply.contains(#""move":"\#(move)""#)
            if !accepted {
                #expect(reply.contains("internal_error"))
                try await Task.sleep(for: .milliseconds(100))
                played.clients[mover]!.send(line)
            }
        }
        #expect(accepted)
        // The opponent gets that move, or the whole game with it if its node was not listening
        // yet when it was sent.
        var seen = false
        while !seen {
            let reply = try await named("the opponent's sight of the outage move") {
                try await played.clients[mover.opponent]!.reply()
            }
            switch reply.message {
            case .moved(let moved): seen = moved.ply == played.ply + 1
            case .game(let state): seen = state.moves.count == played.ply + 1
            default: break
            }
        }
        played.position = try played.position.play(move)
        played.ply += 1
        try await named("the three moves after the outage") { try await played.play(3, skippingStates: true) }
        let check = try await PostgresStorage.open(url)
        let stored = try await check.rows("SELECT COUNT(*) FROM move WHERE game_id = \(played.game)").first!
            .decode(Int.self)
        #expect(stored == played.ply)
        await check.close()
        for node in two { await node.stop() }
    }
}

/// Moves `clock` on, a listening pause at a time and only while a node waits for that pause
/// (so that nothing else on the clock, heartbeats and games' clocks, moves further than it
/// must), until each of `nodes` on the database at `url` listens again (its listening
/// connection's last statement, `LISTEN` on every node's channel, done).
func listenAgain(_ nodes: [Int64], url: String, clock: TestClock) async throws {
    let database = try await PostgresStorage.open(url)
    defer { Task { await database.close() } }
    var waiting = nodes
    let started = ContinuousClock.now
    while !waiting.isEmpty {
        guard ContinuousClock.now - started < .seconds(60) else {
            throw TestClient.Failure(description: "nodes \(waiting) do not listen")
        }
        if clock.isArmed(until: clock.now + PostgresCluster.listenAgainAfter) {
            clock.advance(by: PostgresCluster.listenAgainAfter)
        }
        try await Task.sleep(for: .milliseconds(10))
        var still: [Int64] = []
        for node in waiting {
            let listening = try await database.rows(
                """
                SELECT 1 FROM pg_stat_activity
                WHERE datname = current_database() AND application_name = \(PostgresCluster.listenerName(of: node))
                AND state = 'idle' AND query ILIKE \("%LISTEN%" + PostgresCluster.everyNode + "%")
                """)
            if listening.isEmpty { still.append(node) }
        }
        waiting = still
    }
}

/// Two nodes of one database, the second listening for the first's messages.
private struct LinkedNodes {
    let a: PostgresStorage
    let b: PostgresStorage
    /// The first node's cluster, which the test sends through.
    let from: PostgresCluster
    /// The second's, listening.
    let to: PostgresCluster
    /// What the second node receives, in order.
    let received: AsyncStream<NodeMessage>
    private let listener: Task<Void, Never>

    /// Two nodes on a new database, once the second listens.
    static func listening() async throws -> LinkedNodes {
        let url = try await postgresDatabase()
        let (a, b) = (try await PostgresStorage.open(url), try await PostgresStorage.open(url))
        let now = Date()
        let from = PostgresCluster(node: try await a.joinAsNode(now: now), storage: a, logger: .quiet)
        let to = PostgresCluster(node: try await b.joinAsNode(now: now), storage: b, logger: .quiet)
        let (received, arrive) = AsyncStream<NodeMessage>.makeStream()
        let (listening, ready) = AsyncStream<Void>.makeStream()
        let listener = Task {
            await to.runListening(listening: { ready.yield() }, deliver: { arrive.yield($0) })
        }
        for await _ in listening { break }
        return LinkedNodes(a: a, b: b, from: from, to: to, received: received, listener: listener)
    }

    /// Stops listening, and `sender`, and closes both storages.
    func close(_ sender: Task<Void, Never>) async {
        listener.cancel()
        sender.cancel()
        await a.close()
        await b.close()
    }
}

@Suite struct PostgresClusterTests {
    /// Messages from one node reach another in the order sent: a line longer than a
    /// notification may carry (through `relay_message`, read once), and two equal messages
    /// in one batch (which PostgreSQL would merge into one without their numbers).
    @Test func messagesArriveWholeAndInOrder() async throws {
        let nodes = try await LinkedNodes.listening()
        let (from, to, received) = (nodes.from, nodes.to, nodes.received)
        let sender = Task { await from.runSending() }
        let long = String(repeating: "é", count: 12_000)
        let sent: [NodeMessage] = [
            .line(to: .player(7), text: "{\"type\":\"pong\"}"),
            .line(to: .watcher(3), text: long),
            .line(to: .player(7), text: "{\"type\":\"pong\"}"),
            .absent(game: 1, side: .o, node: from.node),
            // Three long ones in one batch, stored in one statement, each read as its own.
            .line(to: .watcher(4), text: "a" + long), .line(to: .watcher(5), text: "b" + long),
            .line(to: .player(8), text: "c" + long),
        ]
        for message in sent { from.send(message, to: to.node) }
        var got: [NodeMessage] = []
        for await message in received {
            got.append(message)
            if got.count == sent.count { break }
        }
        #expect(got == sent)
        #expect(try await nodes.a.rows("SELECT id FROM relay_message").isEmpty)
        await nodes.close(sender)
    }

    /// A message the database refuses (a NUL in its text, short or long enough for
    /// `relay_message`) is dropped and handed back once, and the messages before and after it
    /// arrive in order: it is never sent again.
    @Test func aMessageTheDatabaseRefusesIsDroppedAndTheRestGoOn() async throws {
        let nodes = try await LinkedNodes.listening()
        let (from, to, received) = (nodes.from, nodes.to, nodes.received)
        let (refusals, refuse) = AsyncStream<NodeMessage>.makeStream()
        let good: [NodeMessage] = [
            .line(to: .player(7), text: "{\"type\":\"pong\"}"),
            .absent(game: 1, side: .o, node: from.node),
            .line(to: .player(8), text: "{\"type\":\"pong\"}"),
        ]
        let bad: [NodeMessage] = [
            .line(to: .player(7), text: "a\u{0}b"),
            .line(to: .watcher(3), text: String(repeating: "x", count: 8_000) + "\u{0}"),
        ]
        for message in [good[0], bad[0], good[1], bad[1], good[2]] { from.send(message, to: to.node) }
        let sender = Task { await from.runSending(refused: { message, _ in refuse.yield(message) }) }
        var got: [NodeMessage] = []
        for await message in received {
            got.append(message)
            if got.count == good.count { break }
        }
        #expect(got == good)
        var dropped: [NodeMessage] = []
        for await message in refusals {
            dropped.append(message)
            if dropped.count == bad.count { break }
        }
        #expect(dropped == bad)
        #expect(from.droppedCount == 2 && from.sentCount == 3 && from.queuedBytes == 0)
        // Sent on, the next message arrives: nothing of the refused ones is sent again.
        from.send(.ended(game: 1, player: 7), to: to.node)
        var next = received.makeAsyncIterator()
        #expect(await next.next() == .ended(game: 1, player: 7))
        #expect(try await nodes.a.rows("SELECT id FROM relay_message").isEmpty)
        await nodes.close(sender)
    }

    /// The queue to other nodes holds at most `maximumQueuedBytes`; a watcher's line is shed
    /// past half of it, anything past the whole, and each message dropped is handed back.
    @Test func theQueueIsBoundedAndWatchersLinesAreShedFirst() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let link = PostgresCluster(
            node: try await storage.joinAsNode(now: Date()), storage: storage, maximumQueuedBytes: 1_000,
            logger: .quiet)
        let text = String(repeating: "x", count: 400)
        // Each line takes 464 bytes of the 1,000.
        let messages: [NodeMessage] = [
            .line(to: .watcher(1), text: text), .line(to: .watcher(2), text: text),
            .line(to: .player(1), text: text), .line(to: .player(2), text: text),
        ]
        for message in messages { link.send(message, to: 9) }
        #expect(link.queuedBytes == 928 && link.droppedCount == 2)
        let (refusals, refuse) = AsyncStream<(NodeMessage, Int64?)>.makeStream()
        let sender = Task { await link.runSending(refused: { refuse.yield(($0, $1)) }) }
        var dropped: [NodeMessage] = []
        for await (message, node) in refusals {
            #expect(node == 9)
            dropped.append(message)
            if dropped.count == 2 { break }
        }
        #expect(dropped == [messages[1], messages[3]])
        sender.cancel()
        await storage.close()
    }
}

@Suite struct HostFencingTests {
    /// Only the node hosting a game stores its moves and its result; once another node took it
    /// over (the first one's lease over), the first stores nothing more of it. The same move
    /// stored again at its ply (an answer lost) is stored with its new clocks; another is refused.
    @Test func onlyTheHostStoresMovesAndTheResult() async throws {
        let url = try await postgresDatabase()
        let (a, b) = (try await PostgresStorage.open(url), try await PostgresStorage.open(url))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try await a.joinAsNode(now: now)
        let bNode = try await b.joinAsNode(now: now)
        let ann = try await a.createPlayer(name: "ann", passwordHash: "h", now: now, token: nil)
        let bob = try await a.createPlayer(name: "bob", passwordHash: "h", now: now, token: nil)
        let id = try await a.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: now)
        let f2 = Move.clone(to: Square("f2")!)
        try await a.recordMove(gameID: id, ply: 1, move: f2, clocks: Clocks(x: 1, o: 2), now: now)
        try await a.recordMove(gameID: id, ply: 1, move: f2, clocks: Clocks(x: 5, o: 6), now: now)
        await #expect(throws: (any Error).self) {
            try await a.recordMove(gameID: id, ply: 1, move: .pass, clocks: Clocks(x: 1, o: 2), now: now)
        }
        let b1 = try Move(notation: "a1b3")
        await #expect(throws: StorageError.noSuchGame) {
            try await b.recordMove(gameID: id, ply: 2, move: b1, clocks: Clocks(x: 5, o: 7), now: now)
        }
        let draw = Outcome(winner: nil, reason: .fiftyMoveRule)
        await #expect(throws: StorageError.noSuchGame) {
            try await b.finishGame(id: id, outcome: draw, rated: false, now: now) { x, o in
                (x.glicko, o.glicko)
            }
        }
        // Both nodes beat at `now`: a's lease is not over yet, and b takes nothing.
        #expect(try await b.claimGames(node: bNode, aliveAfter: now).isEmpty)
        try await b.heartbeat(node: bNode, now: now + 20, aliveAfter: now + 10)
        #expect(try await b.claimGames(node: bNode, aliveAfter: now + 10) == [id])
        await #expect(throws: StorageError.noSuchGame) {
            try await a.recordMove(gameID: id, ply: 2, move: b1, clocks: Clocks(x: 5, o: 7), now: now)
        }
        try await b.recordMove(gameID: id, ply: 2, move: b1, clocks: Clocks(x: 5, o: 7), now: now)
        let moves = try await b.unfinishedGames(ids: [id]).first?.moves
        #expect(moves?.map(\.notation) == ["f2", "a1b3"] && moves?.first?.xClock == 5)
        #expect(
            try await b.finishGame(id: id, outcome: draw, rated: false, now: now) { x, o in
                (x.glicko, o.glicko)
            } == nil)
        await a.close()
        await b.close()
    }
}

@Suite struct RematchAcrossNodesTests {
    /// Two players on two nodes rematch as on one node: the offer, the opponent's
    /// `rematch_offer`, and once both asked a new game with colours swapped, played like any
    /// other; then an offer lapses (`rematch_declined`) when the opponent seeks instead.
    @Test(arguments: NodesBackend.allCases) func playersOnTwoNodesRematchTheirGame(_ backend: NodesBackend)
        async throws
    {
        let two = try await NodesPlace(backend).nodes(2)
        let played = try await PlayedGame(annServer: two[0], bobServer: two[1], plies: 2)
        let (x, o) = (played.clients[.x]!, played.clients[.o]!)
        let first = played.game
        try await resign(o, first, heardBy: [x, o])

        x.send(#"{"type":"rematch","game":\#(first),"id":"r1"}"#)
        #expect(try await x.reply() == Reply(.rematchOffered(game: first), id: .string("r1")))
        #expect(try await o.reply() == Reply(.rematchOffer(game: first)))
        o.send(#"{"type":"rematch","game":\#(first),"id":"r2"}"#)
        #expect(try await o.reply() == Reply(.rematchOffered(game: first), id: .string("r2")))
        var second: Int64 = 0
        for (client, side) in [(x, Side.o), (o, .x)] {
            guard case .start(let start) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected the rematch's start")
            }
            #expect(start.game > first && start.color == side && start.fen == Position.start.fen)
            second = start.game
        }
        // The new game is played: its x (the first game's o) moves, both hear it.
        let move = greedyMove(.start)
        o.send(#"{"type":"move","game":\#(second),"move":"\#(move)","id":"m"}"#)
        for client in [o, x] {
            let reply = try await client.reply()
            guard case .moved(let moved) = reply.message else {
                throw TestClient.Failure(description: "expected moved, got \(reply)")
            }
            #expect(moved.game == second && moved.ply == 1 && reply.id == (client === o ? .string("m") : nil))
        }
        // The first game cannot be rematched again.
        let again = try await x.exchange(#"{"type":"rematch","game":\#(first),"id":"r3"}"#)
        #expect(again.contains(#""code":"no_such_game""#) && again.contains(#""id":"r3""#))

        try await resign(x, second, heardBy: [x, o])
        o.send(#"{"type":"rematch","game":\#(second),"id":"r4"}"#)
        #expect(try await o.reply() == Reply(.rematchOffered(game: second), id: .string("r4")))
        #expect(try await x.reply() == Reply(.rematchOffer(game: second)))
        #expect(
            try await x.exchange(#"{"type":"seek","initial":300,"increment":3}"#) == #"{"type":"seeking"}"#)
        #expect(try await o.reply() == Reply(.rematchDeclined(game: second)))
        for node in two { await node.stop() }
    }
}

/// `client` resigns game `id`; each of `players` gets its `end`.
func resign(_ client: TestClient, _ id: Int64, heardBy players: [TestClient]) async throws {
    client.send(#"{"type":"resign","game":\#(id)}"#)
    for player in players {
        guard case .end(let end) = try await player.reply().message, end.game == id else {
            throw TestClient.Failure(description: "expected the end of game \(id)")
        }
    }
}

@Suite struct TakenForDeadTests {
    /// The node that hosts a game and one of its players, alive, is taken for dead (its
    /// heartbeat looked late): the other node takes the game over and says `hosted`. The node
    /// that held the game lets it go, neither ended nor rated, and its player there gets the
    /// game from the new host, relayed; both play on, and the game ends once, rated once.
    @Test func aLiveNodeTakenForDeadLetsItsGameGoToTheNewHost() async throws {
        let setup = try await GameAcrossNodes(plies: 4)
        let (url, two, host) = (setup.url, setup.servers, setup.host)
        var played = setup.played
        let database = try await PostgresStorage.open(url)
        let (old, new) = (setup.hostIndex, setup.otherIndex)
        // Its heartbeat looks late to the other node, as when it waited behind a busy pool.
        _ = try await database.rows("UPDATE node SET seen_at = 0 WHERE id = \(host)")
        await two[new].server!.lobby.takeOverGames()
        for side in Side.allCases {
            guard case .game(let state) = try await played.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected the game again")
            }
            #expect(state.game == played.game && state.moves.count == 4 && state.color == side)
        }
        #expect(await !two[old].server!.lobby.isInProgress(played.game))
        #expect(await two[new].server!.lobby.isInProgress(played.game))
        try await played.play(2)
        #expect(played.lines[.x]!.count == 7)
        try await played.resign()
        let (moves, ratings, newHost) = try await database.rows(
            """
            SELECT (SELECT COUNT(*) FROM move WHERE game_id = \(played.game)),
                   (SELECT COUNT(*) FROM rating_change WHERE game_id = \(played.game)), host
            FROM game WHERE id = \(played.game)
            """
        ).first!.decode((Int, Int, Int64).self)
        #expect(moves == 6 && ratings == 2 && newHost == Int64(new + 1))
        await database.close()
        for node in two { await node.stop() }
    }

    /// The host is taken for dead while it does not listen (so it misses `hosted`), and its
    /// player there resigns: the old host cannot store the result, lets the game go, and sends
    /// the resignation on to the new host, which plays it. The resigner gets the game from the
    /// new host, then the end answering their request; the game is rated once.
    @Test func aResignationTheOldHostCouldNotStoreIsPlayedByTheNewHost() async throws {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock)
        let (url, two, host) = (setup.url, setup.servers, setup.host)
        let played = setup.played
        let database = try await PostgresStorage.open(url)
        let (old, new) = (setup.hostIndex, setup.otherIndex)
        let resigner = setup.relayed.opponent
        let oldLink = try #require(await two[old].server!.lobby.cluster as? PostgresCluster)
        let newLink = try #require(await two[new].server!.lobby.cluster as? PostgresCluster)
        try await cutListening(of: host, url: url, clock: clock)
        _ = try await database.rows("UPDATE node SET seen_at = 0 WHERE id = \(host)")
        await two[new].server!.lobby.takeOverGames()
        // `hosted` is sent while the old host does not listen: it still holds the game.
        let queued = newLink.queuedCount
        while newLink.sentCount < queued { try await Task.sleep(for: .milliseconds(1)) }
        guard case .game = try await played.clients[setup.relayed]!.reply().message else {
            throw TestClient.Failure(description: "expected the game from the new host")
        }
        // The old host listens again (it says so to the others), none the wiser.
        let before = oldLink.queuedCount
        clock.advance(by: PostgresCluster.listenAgainAfter)
        while oldLink.queuedCount == before { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await two[old].server!.lobby.isInProgress(played.game))

        played.clients[resigner]!.send(#"{"type":"resign","game":\#(played.game),"id":"r"}"#)
        guard case .game(let state) = try await played.clients[resigner]!.reply().message else {
            throw TestClient.Failure(description: "expected the game from the new host")
        }
        #expect(state.moves.count == 4)
        let resigned = Outcome(winner: resigner.opponent, reason: .resignation)
        let end = try await played.clients[resigner]!.reply()
        guard case .end(let theirs) = end.message else {
            throw TestClient.Failure(description: "expected the end, got \(end)")
        }
        #expect(theirs.outcome == resigned && end.id == .string("r"))
        guard case .end(let others) = try await played.clients[setup.relayed]!.reply().message else {
            throw TestClient.Failure(description: "expected the end")
        }
        #expect(others.outcome == resigned)
        let (result, ratings, newHost) = try await database.rows(
            """
            SELECT result, (SELECT COUNT(*) FROM rating_change WHERE game_id = \(played.game)), host
            FROM game WHERE id = \(played.game)
            """
        ).first!.decode((String, Int, Int64).self)
        #expect(result == resigned.storedResult && ratings == 2 && newHost == Int64(new + 1))
        await database.close()
        for node in two { await node.stop() }
    }

    /// The host's resignation is refused for the host the game's row no longer names (here:
    /// nobody): the node takes the game again as stored and plays the resignation there; the
    /// resigner gets the game again, then the end answering their request.
    @Test func aResignationRefusedForTheHostItIsNoLongerIsPlayedOnTheGameTakenAgain() async throws {
        let setup = try await GameAcrossNodes(plies: 4)
        let played = setup.played
        let database = try await PostgresStorage.open(setup.url)
        _ = try await database.rows("UPDATE game SET host = NULL WHERE id = \(played.game)")
        let resigner = setup.relayed.opponent
        played.clients[resigner]!.send(#"{"type":"resign","game":\#(played.game),"id":"r"}"#)
        guard case .game = try await played.clients[resigner]!.reply().message else {
            throw TestClient.Failure(description: "expected the game again")
        }
        let end = try await played.clients[resigner]!.reply()
        guard case .end(let theirs) = end.message else {
            throw TestClient.Failure(description: "expected the end, got \(end)")
        }
        #expect(theirs.outcome == Outcome(winner: resigner.opponent, reason: .resignation))
        #expect(end.id == .string("r"))
        let ratings = try await database.rows(
            "SELECT COUNT(*) FROM rating_change WHERE game_id = \(played.game)"
        ).first!.decode(Int.self)
        #expect(ratings == 2)
        await database.close()
        for node in setup.servers { await node.stop() }
    }

    /// A move whose commit's answer was lost stays in storage at its ply while the host's copy
    /// of the game lacks it (its player was told to play again): the player plays another move
    /// there, which storage refuses. The host takes the game again as stored, with the stored
    /// move, and both players get it; play goes on from it.
    @Test func aStoredMoveTheHostDidNotKnowIsTheGamesWhenAnotherIsPlayedAtItsPly() async throws {
        let clock = TestClock()
        let setup = try await GameAcrossNodes(plies: 4, clock: clock)
        var played = setup.played
        let database = try await PostgresStorage.open(setup.url)
        let mover = setup.relayed.opponent
        if played.position.sideToMove != mover { try await played.play(1) }
        let move = greedyMove(played.position)
        let stored = try #require(played.position.legalMoves().first { $0 != move })
        let ply = played.ply + 1
        _ = try await database.rows(
            """
            INSERT INTO move (game_id, ply, notation, x_clock, o_clock, played_at)
            VALUES (\(played.game), \(ply), \(stored.description), 290000, 290000, \(clock.date.timeIntervalSince1970))
            """)
        let (moverState, otherState) = try await refusedAndSentAgain(move, by: mover, in: played)
        for state in [moverState, otherState] {
            #expect(state.moves.count == ply && state.moves.last == stored)
        }
        played.position = try played.position.play(stored)
        played.ply = ply
        try await played.play(2)
        let moves = try await database.rows(
            "SELECT COUNT(*) FROM move WHERE game_id = \(played.game)"
        ).first!.decode(Int.self)
        #expect(moves == ply + 2)
        await database.close()
        for node in setup.servers { await node.stop() }
    }

    /// A node whose game's row no longer names it host (here: nobody) has a move refused by
    /// storage: the mover is told the move was not stored, the node takes the game again as
    /// stored, both players and its watcher there get it, and the move played again is played.
    @Test func aMoveRefusedForTheHostItIsNoLongerBringsTheStoredGameBack() async throws {
        let setup = try await GameAcrossNodes(plies: 4)
        let (url, two) = (setup.url, setup.servers)
        var played = setup.played
        let database = try await PostgresStorage.open(url)
        let watcher = try two[setup.hostIndex].client()
        watcher.send(#"{"type":"watch","game":\#(played.game)}"#)
        guard case .watching = try await watcher.reply().message else {
            throw TestClient.Failure(description: "expected the watched game")
        }
        _ = try await database.rows("UPDATE game SET host = NULL WHERE id = \(played.game)")
        let mover = played.position.sideToMove
        let move = greedyMove(played.position)
        let (moverState, otherState) = try await refusedAndSentAgain(move, by: mover, in: played)
        #expect(moverState.moves.count == 4 && otherState.moves.count == 4)
        try await played.play(2)
        // Ply 5, played again, is the move refused.
        let lines = played.lines[mover]!
        #expect(
            lines[lines.count - 2].contains(#""ply":5"#)
                && lines[lines.count - 2].contains(#""move":"\#(move)""#))
        let stored = try await database.rows(
            "SELECT COUNT(*) FROM move WHERE game_id = \(played.game)"
        ).first!.decode(Int.self)
        #expect(stored == 6)
        // The watcher watches the game taken again: the game as stored, then the moves after it.
        guard case .watching(let again) = try await watcher.reply().message else {
            throw TestClient.Failure(description: "expected the watched game again")
        }
        #expect(again.moves.count == 4)
        for ply in 5...6 {
            guard case .moved(let moved) = try await watcher.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == ply)
        }
        await database.close()
        for node in two { await node.stop() }
    }
}

/// `mover` plays `move` in `played` as storage refuses it: the mover is told it was not stored,
/// and both players get the game again (the mover's two lines in whichever order). Returns the
/// games they got, the mover's first.
func refusedAndSentAgain(_ move: Move, by mover: Side, in played: PlayedGame) async throws -> (
    GameState, GameState
) {
    played.clients[mover]!.send(#"{"type":"move","game":\#(played.game),"move":"\#(move)","id":"m"}"#)
    var replies = [try await played.clients[mover]!.reply(), try await played.clients[mover]!.reply()]
    if case .game = replies[0].message { replies.reverse() }
    #expect(replies[0].id == .string("m"))
    #expect(
        replies[0].message
            == .error(ProtocolError(.internalError, "the move could not be stored; play it again")))
    guard case .game(let moverState) = replies[1].message,
        case .game(let otherState) = try await played.clients[mover.opponent]!.reply().message
    else { throw TestClient.Failure(description: "expected the game again") }
    return (moverState, otherState)
}

@Suite struct PlannedStopTests {
    /// A node stopped in order (SIGTERM) hands its games over at once: the other node claims
    /// the game without waiting for a heartbeat (the test clock never moves), its player there
    /// gets it again, the player of the stopped node logs in on the other and both play on.
    @Test(arguments: NodesBackend.allCases) func aNodeThatStopsHandsItsGamesOverAtOnce(
        _ backend: NodesBackend
    )
        async throws
    {
        let setup = try await GameAcrossNodes(plies: 4, on: backend)
        var played = setup.played
        let (stopping, staying) = (setup.hostIndex, setup.otherIndex)
        let leaver = played.names.first { $0.value == (stopping == 0 ? "ann" : "bob") }!.key
        await setup.servers[stopping].stop()
        #expect(try await played.clients[leaver]!.linesUntilClosed() == [#"{"type":"shutdown"}"#])
        guard case .game(let state) = try await played.clients[leaver.opponent]!.reply().message else {
            throw TestClient.Failure(description: "expected the game from its new host")
        }
        #expect(state.game == played.game && state.moves.count == 4)
        let back = try setup.servers[staying].client()
        #expect(
            try await back.exchange(#"{"type":"auth","token":"\#(played.tokens[leaver]!)"}"#).contains(
                "welcome"))
        guard case .game = try await back.reply().message else {
            throw TestClient.Failure(description: "expected the game after the login")
        }
        played.clients[leaver] = back
        try await played.play(2)
        #expect(played.ply == 6)
        await setup.servers[staying].stop()
    }
}
