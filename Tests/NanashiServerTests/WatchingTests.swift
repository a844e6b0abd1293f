import Foundation
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import Testing

@testable import NanashiServer

/// Plays a paired game to its end with `greedyMove`, checking that each player and each of
/// `watchers` gets every `moved` in order; returns the moves and the outcome.
private func playToTheEnd(_ paired: PairedGame, watchers: [TestClient] = []) async throws -> ([Move], Outcome)
{
    var position = Position.start
    var moves: [Move] = []
    while !position.isGameOver {
        let move = greedyMove(position)
        paired.clients[position.sideToMove]!.send(
            #"{"type":"move","game":\#(paired.game),"move":"\#(move)"}"#)
        let converted = position.captures(by: move)
        position = try position.play(move)
        moves.append(move)
        // Everyone is told the pieces turned; only the player to move next their moves (none
        // once the game is over).
        let next = paired.clients[position.sideToMove]!
        for client in Array(paired.clients.values) + watchers {
            guard case .moved(let moved) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.game == paired.game && moved.move == move && moved.ply == moves.count)
            #expect(moved.fen == position.fen && moved.converted == converted)
            #expect(moved.legal == (client === next ? position.legalMoves() : nil))
        }
    }
    let outcome = try #require(position.outcome)
    for side in Side.allCases {
        guard case .end(let end) = try await paired.clients[side]!.reply().message else {
            throw TestClient.Failure(description: "expected end")
        }
        #expect(end.outcome == outcome)
    }
    return (moves, outcome)
}

/// Registers two more players and pairs them; returns their game and clients (which must
/// stay open for the game to go on).
private func startedGame(_ server: TestServer, between first: String, and second: String) async throws -> (
    Int64, [TestClient]
) {
    var clients: [TestClient] = []
    for name in [first, second] {
        let client = try server.client()
        try await register(client, name)
        #expect(try await client.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        clients.append(client)
    }
    guard case .start(let start) = try await clients[1].reply().message else {
        throw TestClient.Failure(description: "expected start")
    }
    return (start.game, clients)
}

/// Sends a line and reads the reply as a message.
private func ask(_ client: TestClient, _ line: String) async throws -> ServerMessage {
    client.send(line)
    return try await client.reply().message
}

/// Has `client` watch `game`, which it must then get as a watcher.
private func watch(_ client: TestClient, _ game: Int64) async throws {
    guard case .watching = try await ask(client, #"{"type":"watch","game":\#(game)}"#) else {
        throw TestClient.Failure(description: "expected a watcher's game")
    }
}

@Suite struct WatchingTests {
    @Test func aWatcherSeesTheGameEveryMoveInOrderAndTheEnd() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server, initial: 120, increment: 2)
        let watcher = try server.client()
        let game = paired.game
        let live = try await ask(watcher, #"{"type":"live","id":1}"#)
        #expect(
            live
                == .live([
                    LiveGame(
                        game: game, x: GamePlayer(name: paired.names[.x]!, rating: 1500),
                        o: GamePlayer(name: paired.names[.o]!, rating: 1500),
                        control: TimeControl(initial: 120, increment: 2),
                        ply: 0)
                ]))
        let line = try await watcher.exchange(#"{"type":"watch","game":\#(game),"id":"w"}"#)
        #expect(!line.contains("color"))
        guard case .watching(let state) = try Wire.reply(fromLine: Array(line.utf8)).message else {
            throw TestClient.Failure(description: "expected game, got \(line)")
        }
        #expect(state.game == game && state.fen == Position.start.fen && state.moves == [])
        #expect(state.x.name == paired.names[.x] && state.o.name == paired.names[.o])
        // x's clock runs from the start.
        #expect(state.clock.o == 120_000 && (100_000...120_000).contains(state.clock.x))
        #expect(state.control == TimeControl(initial: 120, increment: 2))
        let (_, outcome) = try await playToTheEnd(paired, watchers: [watcher])
        let winner = outcome.winner.map { "\"\($0)\"" } ?? "null"
        #expect(
            try await watcher.line()
                == #"{"game":\#(game),"outcome":{"reason":"\#(outcome.reason.rawValue)","winner":\#(winner)},"type":"end"}"#
        )
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(game)}"#)
                == #"{"code":"no_such_game","message":"no game \#(game) is in progress","type":"error"}"#)
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":999}"#)
                == #"{"code":"no_such_game","message":"no game 999 is in progress","type":"error"}"#)
        #expect(
            try await watcher.exchange(#"{"type":"unwatch","game":\#(game),"id":2}"#)
                == #"{"game":\#(game),"id":2,"type":"unwatched"}"#)
        #expect(try await watcher.exchange(#"{"type":"live"}"#) == #"{"games":[],"type":"live"}"#)
        await server.stop()
    }

    @Test func onlyWatchingAGameSparesTheLoginTimeoutAndOnlyWhileItWatches() async throws {
        // The connections are looked at every 10 ms of the server's clock, which the test moves;
        // the game is not aborted meanwhile.
        let server = try await TestServer {
            $0.sweepInterval = .milliseconds(10)
            $0.firstMoveLimit = .seconds(60)
        }
        let clock = server.clock
        try await clock.waitForTimer(until: clock.now + .milliseconds(10))
        let paired = try await pairedGame(server)
        let lister = try server.client()
        let watcher = try server.client()
        let closing = #"{"code":"idle_timeout","message":"not logged in after 30 s; closing","type":"error"}"#
        // Asking for the list is not watching: it once spared a connection the login for good.
        #expect(try await lister.exchange(#"{"type":"live"}"#).contains(#""type":"live""#))
        try await watch(watcher, paired.game)
        // Both have pinged within the idle timeout; only the watcher is spared the login's.
        clock.advance(by: .seconds(31))
        for client in [lister, watcher] { client.send(#"{"type":"ping"}"#) }
        #expect(try await lister.linesUntilClosed().filter { $0 != #"{"type":"pong"}"# } == [closing])
        #expect(try await watcher.line() == #"{"type":"pong"}"#)
        #expect(try await watcher.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        // Once it stops watching, the login timeout applies again.
        #expect(
            try await watcher.exchange(#"{"type":"unwatch","game":\#(paired.game)}"#)
                == #"{"game":\#(paired.game),"type":"unwatched"}"#)
        try await clock.advanceWhenArmed(by: .milliseconds(10))
        #expect(try await watcher.linesUntilClosed() == [closing])
        await server.stop()
    }

    @Test func anUnwatchedGameSendsNothingMore() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        let watcher = try server.client()
        try await watch(watcher, paired.game)
        #expect(
            try await watcher.exchange(#"{"type":"unwatch","game":\#(paired.game)}"#)
                == #"{"game":\#(paired.game),"type":"unwatched"}"#)
        try await playGreedily(paired, plies: 2)
        // The next line is the pong: no `moved` came in between.
        #expect(try await watcher.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }

    @Test func aConnectionWatchesAtMostItsLimitOfGames() async throws {
        let server = try await TestServer { $0.maximumWatchesPerConnection = 1 }
        let first = try await pairedGame(server)
        let watcher = try server.client()
        try await watch(watcher, first.game)
        // Watching the same game again is answered once (`WatchingBudgetTests`), and counts once.
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(first.game)}"#)
                == #"{"code":"bad_request","message":"already watching game \#(first.game)","type":"error"}"#)
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(first.game + 1)}"#)
                == #"{"code":"no_such_game","message":"no game \#(first.game + 1) is in progress","type":"error"}"#
        )
        let (second, players) = try await startedGame(server, between: "carl", and: "dora")
        defer { _ = players }
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(second)}"#)
                == #"{"code":"watch_limit","message":"a connection may watch at most 1 games","type":"error"}"#
        )
        _ = try await watcher.exchange(#"{"type":"unwatch","game":\#(first.game)}"#)
        try await watch(watcher, second)
        await server.stop()
    }

    @Test func aWatcherThatDoesNotReadIsDroppedAndThePlayersPlayOn() async throws {
        let server = try await TestServer {
            $0.maximumQueuedBytes = 64 * 1024 * 1024
            $0.maximumWatcherQueuedBytes = 4096
            $0.messageBurst = 1_000_000
            $0.socketSendBuffer = 4096
        }
        let paired = try await pairedGame(server)
        let deaf = try TestClient(port: server.port, receiveBuffer: 4096)
        deaf.send(#"{"type":"watch","game":\#(paired.game)}"#)
        // Replies it never takes pile up on the server's side of its socket, past the kernel's
        // buffers; its last line, a registration, is read once all the pings before it were.
        #expect(await deaf.sendRepeatedly(longestPing, times: 3000) == 3000)
        deaf.send(#"{"type":"register","name":"deaf","password":"password1"}"#)
        try await waitForPlayer("deaf", on: server)
        // The next move is one line too many for the watcher: it is cut off, the players are not.
        try await playGreedily(paired, plies: 4)
        _ = try await deaf.linesUntilClosed()
        for client in paired.clients.values {
            #expect(try await client.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        }
        await server.stop()
    }
}

@Suite struct WatchingBudgetTests {
    /// A `watch` of a game a connection already watches is answered once, with a short error, not
    /// the whole game again; after `unwatch` it is sent again.
    @Test func aRepeatedWatchIsAnsweredOnce() async throws {
        let server = try await TestServer()
        let game = try await pairedGame(server).game
        let watcher = try server.client()
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(game),"id":1}"#).contains(
                #""type":"game""#))
        for id in 2...4 {
            #expect(
                try await watcher.exchange(#"{"type":"watch","game":\#(game),"id":\#(id)}"#)
                    == #"{"code":"bad_request","id":\#(id),"message":"already watching game \#(game)","type":"error"}"#
            )
        }
        #expect(
            try await watcher.exchange(#"{"type":"unwatch","game":\#(game),"id":5}"#)
                == #"{"game":\#(game),"id":5,"type":"unwatched"}"#)
        #expect(
            try await watcher.exchange(#"{"type":"watch","game":\#(game),"id":6}"#).contains(
                #""type":"game""#))
        await server.stop()
    }

    /// `watch` and `analyse` spend the address's read budget, over all its connections: a flood
    /// of them from one address is refused, while another address is served.
    @Test func watchesAndAnalysesSpendTheReadBudget() async throws {
        let server = try await TestServer { $0.readBurstPerAddress = 3 }
        let paired = try await pairedGame(server, initial: 120, increment: 2)
        let limited =
            #""message":"too many queries from your address; slow down (at most 20 a second)","type":"error"}"#
        let first = try server.client(from: "127.0.0.3")
        try await watch(first, paired.game)
        #expect(
            try await first.exchange(#"{"type":"analyse","game":999,"id":1}"#)
                .hasPrefix(#"{"code":"no_such_game","id":1"#))
        let second = try server.client(from: "127.0.0.3")
        try await watch(second, paired.game)
        #expect(
            try await second.exchange(#"{"type":"watch","game":\#(paired.game),"id":2}"#)
                == #"{"code":"rate_limited","id":2,"# + limited)
        #expect(
            try await first.exchange(#"{"type":"analyse","game":999,"id":3}"#)
                == #"{"code":"rate_limited","id":3,"# + limited)
        let other = try server.client(from: "127.0.0.4")
        try await watch(other, paired.game)
        await server.stop()
    }
}

@Suite struct ArchiveTests {
    @Test func pagingThroughTwoHundredFiftyFinishedGames() async throws {
        let database = try TemporaryDatabase()
        var ids: [Int64] = []
        do {
            let storage = try SQLiteStorage(path: database.path)
            let ann = try await storage.createPlayer(name: "Ann", passwordHash: "h", now: Date(), token: nil)
                .id!
            let bob = try await storage.createPlayer(name: "bob", passwordHash: "h", now: Date(), token: nil)
                .id!
            let carl = try await storage.createPlayer(
                name: "carl", passwordHash: "h", now: Date(), token: nil
            ).id!
            let end = Date(timeIntervalSince1970: 1_800_000_000)
            for number in 0..<252 {
                // Ann plays both sides in turn; one game without her, and one unfinished.
                let (x, o) = number == 100 ? (bob, carl) : number % 2 == 0 ? (ann, bob) : (bob, ann)
                let id = try await storage.createGame(xID: x, oID: o, control: .standard, now: end)
                try await storage.recordMove(
                    gameID: id, ply: 1, move: Move(notation: "b6"), clocks: Clocks(x: 1, o: 1), now: end)
                if number == 200 { continue }
                _ = try await storage.finishGame(
                    id: id, outcome: Outcome(winner: .o, reason: .resignation), rated: false, now: end
                ) {
                    ($0.glicko, $1.glicko)
                }
                if number != 100 { ids.append(id) }
            }
        }
        #expect(ids.count == 250)
        let server = try await TestServer(database: database)
        let client = try server.client()
        var seen: [Int64] = []
        var before = ""
        while true {
            guard
                case .games(let page) = try await ask(
                    client, #"{"type":"games","name":"ANN","limit":100\#(before)}"#)
            else { throw TestClient.Failure(description: "expected games") }
            #expect(page.name == "Ann")
            guard let last = page.games.last else { break }
            #expect(page.games.count == min(100, 250 - seen.count))
            seen += page.games.map(\.game)
            before = #","before":\#(last.game)"#
        }
        #expect(seen == ids.reversed())
        // The default page, a clamped limit, and the fields of one game.
        guard case .games(let first) = try await ask(client, #"{"type":"games","name":"ann"}"#),
            case .games(let one) = try await ask(client, #"{"type":"games","name":"ann","limit":-5}"#),
            case .games(let most) = try await ask(client, #"{"type":"games","name":"ann","limit":1000}"#)
        else { throw TestClient.Failure(description: "expected games") }
        #expect(first.games.count == 20 && one.games.count == 1 && most.games.count == 100)
        let newest = ids.last!
        #expect(
            try await client.exchange(#"{"type":"games","name":"ann","limit":1}"#)
                == #"{"games":[{"ended":"2027-01-15T08:00:00Z","game":\#(newest),"o":{"name":"Ann","rating":1500},"outcome":{"reason":"resign","winner":"o"},"plies":1,"x":{"name":"bob","rating":1500}}],"name":"Ann","type":"games"}"#
        )
        #expect(
            try await client.exchange(#"{"type":"games","name":"nobody"}"#)
                == #"{"code":"no_such_player","message":"no player is called 'nobody'","type":"error"}"#)
        await server.stop()
    }

    @Test func aGamesPGNReadsBackAsTheStoredGame() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server, initial: 60, increment: 1)
        let watcher = try server.client()
        #expect(
            try await watcher.exchange(#"{"type":"pgn","game":\#(paired.game)}"#)
                == #"{"code":"no_such_game","message":"no finished game \#(paired.game)","type":"error"}"#)
        let (moves, outcome) = try await playToTheEnd(paired)
        guard case .pgn(let reply) = try await ask(watcher, #"{"type":"pgn","game":\#(paired.game)}"#) else {
            throw TestClient.Failure(description: "expected pgn")
        }
        #expect(reply.game == paired.game)
        let record = try GameRecord(pgn: reply.pgn)
        #expect(record.moves == moves)
        #expect(record.result == GameRecord.result(winner: outcome.winner))
        #expect(record.start == .start)
        #expect(record.tags["White"] == paired.names[.x] && record.tags["Black"] == paired.names[.o])
        #expect(record.tags["WhiteElo"] == "1500" && record.tags["BlackElo"] == "1500")
        #expect(record.tags["TimeControl"] == "60+1" && record.tags["Termination"] == "normal")
        #expect(record.tags["Reason"] == outcome.reason.rawValue)
        #expect(reply.pgn.contains(#"[FEN "\#(Position.start.fen)"]"#) && record.tags["Date"]?.count == 10)
        #expect(
            try await watcher.exchange(#"{"type":"pgn","game":12345}"#)
                == #"{"code":"no_such_game","message":"no finished game 12345","type":"error"}"#)
        await server.stop()
    }
}

@Suite struct RematchTests {
    /// A paired game that `x` resigns at once.
    private func resignedGame(_ server: TestServer) async throws -> PairedGame {
        let paired = try await pairedGame(server, initial: 90, increment: 4)
        paired.clients[.x]!.send(#"{"type":"resign","game":\#(paired.game)}"#)
        for side in Side.allCases {
            guard case .end = try await paired.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected end")
            }
        }
        return paired
    }

    @Test func aRematchStartsWithColoursSwappedAtTheSameTimeControl() async throws {
        let server = try await TestServer()
        let paired = try await resignedGame(server)
        let (x, o, game) = (paired.clients[.x]!, paired.clients[.o]!, paired.game)
        #expect(
            try await o.exchange(#"{"type":"rematch","game":\#(game),"id":1}"#)
                == #"{"game":\#(game),"id":1,"type":"rematch_offered"}"#)
        #expect(try await x.line() == #"{"game":\#(game),"type":"rematch_offer"}"#)
        #expect(
            try await x.exchange(#"{"type":"rematch","game":\#(game)}"#)
                == #"{"game":\#(game),"type":"rematch_offered"}"#)
        guard case .start(let wasX) = try await x.reply().message,
            case .start(let wasO) = try await o.reply().message
        else { throw TestClient.Failure(description: "expected start") }
        #expect(wasX.game == wasO.game && wasX.game != game)
        #expect(wasX.color == .o && wasO.color == .x)
        #expect(wasX.control == TimeControl(initial: 90, increment: 4) && wasO.control == wasX.control)
        #expect(wasX.opponent.name == paired.names[.o] && wasO.opponent.name == paired.names[.x])
        // The old game cannot be rematched again.
        #expect(
            try await x.exchange(#"{"type":"rematch","game":\#(game)}"#)
                == #"{"code":"no_such_game","message":"you have no finished game \#(game) to rematch","type":"error"}"#
        )
        await server.stop()
    }

    @Test func anOfferLapsesAfterItsTimeAndTheOffererIsTold() async throws {
        #expect(ServerSettings().rematchOfferLifetime == .seconds(60))
        let server = try await TestServer()
        let paired = try await resignedGame(server)
        let (x, o, game) = (paired.clients[.x]!, paired.clients[.o]!, paired.game)
        #expect(
            try await x.exchange(#"{"type":"rematch","game":\#(game)}"#)
                == #"{"game":\#(game),"type":"rematch_offered"}"#)
        #expect(try await o.line() == #"{"game":\#(game),"type":"rematch_offer"}"#)
        // Offers lapse as the pairing pass (every second) finds them past their time.
        try await server.clock.waitForTimer(until: server.clock.now + .seconds(1))
        server.clock.advance(by: .seconds(60))
        #expect(try await x.line() == #"{"game":\#(game),"type":"rematch_declined"}"#)
        #expect(
            try await o.exchange(#"{"type":"rematch","game":\#(game)}"#)
                == #"{"code":"no_such_game","message":"you have no finished game \#(game) to rematch","type":"error"}"#
        )
        await server.stop()
    }

    @Test func anOfferLapsesWhenTheOtherSeeksWatchesOrLeaves() async throws {
        for moveOn in ["seek", "watch", "leave", "supersede"] {
            let server = try await TestServer()
            let paired = try await resignedGame(server)
            let (x, o, game) = (paired.clients[.x]!, paired.clients[.o]!, paired.game)
            _ = try await x.exchange(#"{"type":"rematch","game":\#(game)}"#)
            #expect(try await o.line() == #"{"game":\#(game),"type":"rematch_offer"}"#)
            switch moveOn {
            case "seek": #expect(try await o.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
            case "watch":
                let (other, players) = try await startedGame(server, between: "carl", and: "dora")
                defer { _ = players }
                _ = try await o.exchange(#"{"type":"watch","game":\#(other)}"#)
            case "supersede":
                // Logged in again on another connection.
                let again = try server.client()
                #expect(
                    try await again.exchange(#"{"type":"auth","token":"\#(paired.tokens[.o]!)"}"#).contains(
                        "welcome"))
            default: o.close()
            }
            #expect(try await x.line() == #"{"game":\#(game),"type":"rematch_declined"}"#, "\(moveOn)")
            await server.stop()
        }
    }

    @Test func aRematchNeedsALoginAndAGameOfOnesOwn() async throws {
        let server = try await TestServer()
        let paired = try await resignedGame(server)
        let stranger = try server.client()
        #expect(
            try await stranger.exchange(#"{"type":"rematch","game":\#(paired.game)}"#)
                == #"{"code":"not_authenticated","message":"log in first","type":"error"}"#)
        try await register(stranger, "carl")
        #expect(
            try await stranger.exchange(#"{"type":"rematch","game":\#(paired.game)}"#)
                == #"{"code":"no_such_game","message":"you have no finished game \#(paired.game) to rematch","type":"error"}"#
        )
        await server.stop()
    }
}

@Suite struct WatchingWireTests {
    private static let ann = GamePlayer(name: "ann", rating: 1612)
    private static let bob = GamePlayer(name: "bob", rating: 1480)

    @Test(arguments: [
        (
            ServerMessage.live([
                LiveGame(game: 4, x: ann, o: bob, control: TimeControl(initial: 300, increment: 3), ply: 9)
            ]),
            #"{"games":[{"game":4,"increment":3,"initial":300,"o":{"name":"bob","rating":1480},"ply":9,"x":{"name":"ann","rating":1612}}],"type":"live"}"#
        ),
        (
            .watching(
                WatchedGame(
                    game: 4, x: ann, o: bob, fen: "x5o/7/7/7/7/7/o5x x 0 1", moves: [],
                    clock: Clocks(x: 5, o: 6),
                    control: TimeControl(initial: 300, increment: 3))),
            #"{"clock":{"o":6,"x":5},"fen":"x5o/7/7/7/7/7/o5x x 0 1","game":4,"increment":3,"initial":300,"moves":[],"o":{"name":"bob","rating":1480},"type":"game","x":{"name":"ann","rating":1612}}"#
        ),
        (
            .watchedEnd(WatchedEnd(game: 4, outcome: Outcome(winner: nil, reason: .fiftyMoveRule))),
            #"{"game":4,"outcome":{"reason":"fifty","winner":null},"type":"end"}"#
        ),
        (.unwatched(game: 4), #"{"game":4,"type":"unwatched"}"#),
        (.rematchOffered(game: 4), #"{"game":4,"type":"rematch_offered"}"#),
        (.rematchOffer(game: 4), #"{"game":4,"type":"rematch_offer"}"#),
        (.rematchDeclined(game: 4), #"{"game":4,"type":"rematch_declined"}"#),
        (
            .pgn(GamePGN(game: 4, pgn: "[Result \"*\"]\n\n*\n")),
            #"{"game":4,"pgn":"[Result \"*\"]\n\n*\n","type":"pgn"}"#
        ),
    ])
    func newRepliesAreExactAndReadBack(message: ServerMessage, line: String) throws {
        #expect(Wire.line(Reply(message)) == line)
        #expect(try Wire.reply(fromLine: Array(line.utf8)).message == message)
    }

    @Test func aGameWithAColourIsAPlayersAndANullColourAWatchers() throws {
        let player =
            #"{"clock":{"o":6,"x":5},"color":"o","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":4,"increment":3,"initial":300,"moves":[],"opponent":{"name":"ann","rating":1612},"type":"game"}"#
        guard case .game(let state) = try Wire.reply(fromLine: Array(player.utf8)).message else {
            throw TestClient.Failure(description: "expected a player's game")
        }
        #expect(state.color == .o)
        let watcher =
            #"{"clock":{"o":6,"x":5},"color":null,"fen":"x5o/7/7/7/7/7/o5x x 0 1","game":4,"increment":3,"initial":300,"moves":[],"o":{"name":"bob","rating":1480},"type":"game","x":{"name":"ann","rating":1612}}"#
        guard case .watching = try Wire.reply(fromLine: Array(watcher.utf8)).message else {
            throw TestClient.Failure(description: "expected a watcher's game")
        }
    }

    @Test func newRequestsAreReadWithTheirDefaults() throws {
        let cases: [(String, ClientMessage)] = [
            (#"{"type":"live"}"#, .live),
            (#"{"type":"watch","game":3}"#, .watch(game: 3)),
            (#"{"type":"unwatch","game":3}"#, .unwatch(game: 3)),
            (#"{"type":"games","name":"ann"}"#, .games(name: "ann", before: nil, limit: 20)),
            (
                #"{"type":"games","name":"ann","before":9,"limit":5}"#,
                .games(name: "ann", before: 9, limit: 5)
            ),
            (#"{"type":"pgn","game":3}"#, .pgn(game: 3)),
            (#"{"type":"rematch","game":3}"#, .rematch(game: 3)),
        ]
        for (line, message) in cases {
            #expect(try Wire.request(fromLine: Array(line.utf8)).message == message)
            #expect(try Wire.request(fromLine: Array(Wire.line(Request(message)).utf8)).message == message)
        }
        #expect(throws: ProtocolError(.badRequest, "missing field 'game'")) {
            try Wire.request(fromLine: Array(#"{"type":"watch"}"#.utf8))
        }
        #expect(throws: ProtocolError(.badRequest, "field 'before' has the wrong type")) {
            try Wire.request(fromLine: Array(#"{"type":"games","name":"a","before":"x"}"#.utf8))
        }
    }
}
