import Foundation
import GRDB
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import Testing

@testable import NanashiServer

/// Logs `name` in with its password (the one `register` gives unless told); returns the new
/// session's token.
@discardableResult
func login(_ client: TestClient, _ name: String, password: String = "password1") async throws -> String {
    try await welcomed(client, "login", name, password)
}

/// Registers a player and returns their token (which many tests do not need).
@discardableResult
func register(_ client: TestClient, _ name: String, password: String = "password1") async throws -> String {
    try await welcomed(client, "register", name, password)
}

/// ann and bob, each on a new client of `server`, registered.
func annAndBob(on server: TestServer) async throws -> (ann: TestClient, bob: TestClient) {
    let (ann, bob) = (try server.client(), try server.client())
    _ = try await register(ann, "ann")
    _ = try await register(bob, "bob")
    return (ann, bob)
}

/// The token of the `welcome` that a `login` or `register` (`type`) of `name` gets.
private func welcomed(_ client: TestClient, _ type: String, _ name: String, _ password: String) async throws
    -> String
{
    let reply = try await Wire.reply(
        fromLine: Array(
            client.exchange(#"{"type":"\#(type)","name":"\#(name)","password":"\#(password)"}"#).utf8))
    guard case .welcome(let welcome) = reply.message else {
        throw TestClient.Failure(description: "\(reply)")
    }
    return welcome.token
}

/// Whether `name` logs in on `client` with the tests' password.
func logsIn(_ client: TestClient, as name: String) async throws -> Bool {
    try await client.exchange(#"{"type":"login","name":"\#(name)","password":"password1"}"#).contains(
        "welcome")
}

/// Two new players seek and are paired; returns each one's client, token and the game.
struct PairedGame {
    var clients: [Side: TestClient]
    var tokens: [Side: String]
    var names: [Side: String]
    var game: Int64
}

func pairedGame(
    _ server: TestServer, initial: Int = 300, increment: Int = 3, names: (String, String) = ("ann", "bob")
) async throws -> PairedGame {
    let ann = try server.client()
    let bob = try server.client()
    let annToken = try await register(ann, names.0)
    let bobToken = try await register(bob, names.1)
    let seek = #"{"type":"seek","initial":\#(initial),"increment":\#(increment)}"#
    #expect(try await ann.exchange(seek) == #"{"type":"seeking"}"#)
    #expect(try await bob.exchange(seek) == #"{"type":"seeking"}"#)
    guard case .start(let annStart) = try await ann.reply().message,
        case .start(let bobStart) = try await bob.reply().message
    else { throw TestClient.Failure(description: "no start") }
    #expect(annStart.game == bobStart.game)
    #expect(annStart.color == bobStart.color.opponent)
    #expect(annStart.opponent == Opponent(name: names.1, rating: 1500))
    #expect(bobStart.opponent == Opponent(name: names.0, rating: 1500))
    #expect(
        annStart.fen == Position.start.fen
            && annStart.control == TimeControl(initial: initial, increment: increment))
    let annSide = annStart.color
    return PairedGame(
        clients: [annSide: ann, annSide.opponent: bob],
        tokens: [annSide: annToken, annSide.opponent: bobToken],
        names: [annSide: names.0, annSide.opponent: names.1], game: annStart.game)
}

/// Plays the first `plies` moves of a new game with `greedyMove`, reading each `moved` on both
/// sides; returns the position after them.
@discardableResult
func playGreedily(_ paired: PairedGame, plies: Int) async throws -> Position {
    var position = Position.start
    for _ in 0..<plies {
        let move = greedyMove(position)
        paired.clients[position.sideToMove]!.send(
            #"{"type":"move","game":\#(paired.game),"move":"\#(move)"}"#)
        for side in Side.allCases {
            guard case .moved = try await paired.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
        }
        position = try position.play(move)
    }
    return position
}

/// The move that leaves the mover the most pieces ahead; deterministic, and it ends games fast.
func greedyMove(_ position: Position) -> Move {
    let side = position.sideToMove
    return position.legalMoves().max { a, b in
        let pa = try! position.play(a)
        let pb = try! position.play(b)
        return pa.pieces(of: side).count - pa.pieces(of: side.opponent).count
            < pb.pieces(of: side).count - pb.pieces(of: side.opponent).count
    }!
}

@Suite struct ServerTests {
    @Test func repliesAreExactAndBadLinesChangeNothing() async throws {
        let server = try await TestServer()
        let client = try server.client()
        #expect(try await client.exchange(#"{"type":"ping","id":1}"#) == #"{"id":1,"type":"pong"}"#)
        #expect(
            try await client.exchange("nonsense")
                == #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#)
        #expect(
            try await client.exchange(#"{"type":"dance","id":"d"}"#)
                == #"{"code":"unknown_type","id":"d","message":"unknown message type 'dance'","type":"error"}"#
        )
        #expect(
            try await client.exchange(#"{"type":"seek","id":2}"#)
                == #"{"code":"not_authenticated","id":2,"message":"log in first","type":"error"}"#)
        #expect(
            try await client.exchange(#"{"type":"move","game":1}"#)
                == #"{"code":"bad_request","message":"missing field 'move'","type":"error"}"#)
        client.send(String(repeating: "x", count: 5000))
        #expect(
            try await client.line()
                == #"{"code":"line_too_long","message":"a line may have at most 4096 bytes","type":"error"}"#)
        // A line split across writes, after the long one, is read whole.
        client.sendBytes(Array(#"{"type":"pi"#.utf8))
        client.sendBytes(Array("ng\",\"id\":\"z\"}\r\n".utf8))
        #expect(try await client.line() == #"{"id":"z","type":"pong"}"#)
        #expect(
            try await client.exchange(#"{"type":"profile","name":"nobody"}"#)
                == #"{"code":"no_such_player","message":"no player is called 'nobody'","type":"error"}"#)
        #expect(
            try await client.exchange(#"{"type":"leaderboard","id":3}"#)
                == #"{"entries":[],"id":3,"total":0,"type":"leaderboard"}"#)
        #expect(
            try await client.exchange(#"{"type":"leaderboard","limit":101}"#)
                == #"{"code":"bad_request","message":"limit is 1 to 100, offset 0 or more","type":"error"}"#)
        await server.stop()
    }

    @Test func accountsRegisterLogInResumeAndLogOut() async throws {
        let server = try await TestServer()
        let client = try server.client()
        let line = try await client.exchange(
            #"{"type":"register","name":"Ann_1","password":"password1","id":1}"#)
        let token = try #require(line.split(separator: "\"token\":\"").last?.split(separator: "\"").first)
        #expect(
            line
                == #"{"games":0,"id":1,"name":"Ann_1","rating":1500,"rd":350,"token":"\#(token)","type":"welcome"}"#
        )
        #expect(token.count == 43)

        let refusals: [(String, String)] = [
            (#"{"type":"register","name":"ann_1","password":"password1"}"#, "name_taken"),
            (#"{"type":"register","name":"an","password":"password1"}"#, "bad_name"),
            (#"{"type":"register","name":"a b c","password":"password1"}"#, "bad_name"),
            (#"{"type":"register","name":"abcdefghijklmnopqrstu","password":"password1"}"#, "bad_name"),
            (#"{"type":"register","name":"cyd","password":"short"}"#, "weak_password"),
            (#"{"type":"login","name":"Ann_1","password":"password2"}"#, "bad_credentials"),
            (#"{"type":"login","name":"nobody","password":"password1"}"#, "bad_credentials"),
            (#"{"type":"auth","token":"AAAA"}"#, "bad_credentials"),
        ]
        for (request, code) in refusals {
            let reply = try await client.exchange(request)
            #expect(reply.contains(#""code":"\#(code)""#), "\(request) → \(reply)")
        }

        let other = try server.client()
        let login = try await Wire.reply(
            fromLine: Array(other.exchange(#"{"type":"login","name":"ANN_1","password":"password1"}"#).utf8))
        guard case .welcome(let welcome) = login.message else {
            throw TestClient.Failure(description: "\(login)")
        }
        #expect(welcome.name == "Ann_1" && welcome.token != String(token))

        let third = try server.client()
        let resumed = try await third.exchange(#"{"type":"auth","token":"\#(token)"}"#)
        #expect(
            resumed
                == #"{"games":0,"name":"Ann_1","rating":1500,"rd":350,"token":"\#(token)","type":"welcome"}"#)
        #expect(try await third.exchange(#"{"type":"logout","id":9}"#) == #"{"id":9,"type":"bye"}"#)
        #expect(try await third.exchange(#"{"type":"seek"}"#).contains("not_authenticated"))
        #expect(try await third.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("bad_credentials"))
        // The other session's token still works.
        #expect(try await third.exchange(#"{"type":"auth","token":"\#(welcome.token)"}"#).contains("welcome"))
        await server.stop()
    }

    /// `logout` with `everywhere` revokes every token of the player, not only its own: a token
    /// stolen from another session works no more.
    @Test func aLogoutEverywhereRevokesEveryToken() async throws {
        let server = try await TestServer()
        let first = try server.client()
        let stolen = try await register(first, "ann")
        let second = try server.client()
        let login = try await second.exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
        #expect(login.contains("welcome"))
        #expect(try await first.linesUntilClosed() == [#"{"type":"superseded"}"#])
        #expect(
            try await second.exchange(#"{"type":"logout","everywhere":true,"id":2}"#)
                == #"{"id":2,"type":"bye"}"#)
        let third = try server.client()
        #expect(
            try await third.exchange(#"{"type":"auth","token":"\#(stolen)"}"#).contains("bad_credentials"))
        guard case .welcome(let own) = try Wire.reply(fromLine: Array(login.utf8)).message else {
            throw TestClient.Failure(description: login)
        }
        #expect(
            try await third.exchange(#"{"type":"auth","token":"\#(own.token)"}"#).contains("bad_credentials"))
        #expect(
            try Wire.request(fromLine: Array(#"{"type":"logout"}"#.utf8)).message
                == .logout(everywhere: false))
        await server.stop()
    }

    @Test func failedLoginsAreThrottledPerName() async throws {
        let server = try await TestServer { $0.failedLoginRefill = .seconds(3600) }
        let client = try server.client()
        try await register(client, "ann")
        for _ in 0..<5 {
            #expect(
                try await client.exchange(#"{"type":"login","name":"ann","password":"wrong-one"}"#).contains(
                    "bad_credentials"))
        }
        #expect(
            try await client.exchange(#"{"type":"login","name":"ANN","password":"password1"}"#)
                == #"{"code":"rate_limited","message":"too many failed logins for this name; try again later","type":"error"}"#
        )
        try await register(client, "bob")
        #expect(try await logsIn(client, as: "bob"))
        await server.stop()
    }

    @Test func aWholeGameIsPlayedRatedAndShownInTheStandings() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        var position = Position.start
        var ply = 0
        var requestID = 0
        while !position.isGameOver {
            let side = position.sideToMove
            let move = greedyMove(position)
            requestID += 1
            paired.clients[side]!.send(
                #"{"type":"move","game":\#(paired.game),"move":"\#(move)","id":\#(requestID)}"#)
            position = try position.play(move)
            ply += 1
            for viewer in Side.allCases {
                let reply = try await paired.clients[viewer]!.reply()
                guard case .moved(let moved) = reply.message else {
                    throw TestClient.Failure(description: "expected moved, got \(reply)")
                }
                #expect(moved.game == paired.game && moved.move == move && moved.ply == ply)
                #expect(moved.fen == position.fen)
                #expect(reply.id == (viewer == side ? .integer(Int64(requestID)) : nil))
            }
        }
        let outcome = try #require(position.outcome)
        var after: [Side: RatingChange] = [:]
        for side in Side.allCases {
            guard case .end(let end) = try await paired.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected end")
            }
            #expect(end.game == paired.game && end.outcome == outcome)
            #expect(end.rating.before == 1500)
            switch outcome.winner {
            case side: #expect(end.rating.after > 1500)
            case nil: #expect(end.rating.after == 1500)
            default: #expect(end.rating.after < 1500)
            }
            after[side] = end.rating
        }
        // The game is over: a late move is refused.
        let late = try await paired.clients[position.sideToMove]!.exchange(
            #"{"type":"move","game":\#(paired.game),"move":"0000"}"#)
        #expect(late.contains("no_such_game"))

        let viewer = paired.clients[.x]!
        guard
            case .leaderboard(let board) = try await Wire.reply(
                fromLine: Array(viewer.exchange(#"{"type":"leaderboard"}"#).utf8)
            ).message
        else { throw TestClient.Failure(description: "no leaderboard") }
        #expect(board.total == 2)
        #expect(Set(board.entries.map(\.name)) == ["ann", "bob"])
        #expect(board.entries.map(\.rank) == [1, 2])
        #expect(board.entries.allSatisfy { $0.games == 1 && $0.provisional })
        let xEntry = try #require(board.entries.first { $0.name == paired.names[.x] })
        #expect(xEntry.rating == after[.x]!.after)
        #expect(
            xEntry.wins == (outcome.winner == .x ? 1 : 0) && xEntry.draws == (outcome.winner == nil ? 1 : 0))

        guard
            case .profile(let profile) = try await Wire.reply(
                fromLine: Array(viewer.exchange(#"{"type":"profile","name":"\#(paired.names[.o]!)"}"#).utf8)
            ).message
        else { throw TestClient.Failure(description: "no profile") }
        #expect(profile.rating == after[.o]!.after && profile.games == 1)
        #expect(
            profile.recent == [
                RecentGame(
                    game: paired.game, opponent: paired.names[.x]!, color: .o, outcome: outcome,
                    ratingChange: after[.o]!.after - 1500)
            ])
        #expect(
            profile.recent[0].result
                == (outcome.winner == nil ? .draw : (outcome.winner == .o ? .win : .loss)))
        await server.stop()
    }

    @Test func illegalAndOutOfTurnMovesAreRefusedAndChangeNothing() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        let x = paired.clients[.x]!
        let o = paired.clients[.o]!
        let game = paired.game
        #expect(
            try await o.exchange(#"{"type":"move","game":\#(game),"move":"b2","id":1}"#)
                == #"{"code":"not_your_turn","id":1,"message":"it is your opponent's move","type":"error"}"#)
        let illegal = try await x.exchange(#"{"type":"move","game":\#(game),"move":"d4","id":2}"#)
        #expect(illegal.hasPrefix(#"{"code":"illegal_move","id":2,"message":""#))
        #expect(
            try await x.exchange(#"{"type":"move","game":\#(game),"move":"0000"}"#).contains("illegal_move"))
        #expect(
            try await x.exchange(#"{"type":"move","game":\#(game),"move":"zz"}"#).contains("illegal_move"))
        #expect(
            try await x.exchange(#"{"type":"move","game":\#(game + 1),"move":"b6"}"#).contains("no_such_game")
        )
        #expect(try await x.exchange(#"{"type":"seek"}"#).contains("in_game"))
        // Nothing changed: the first real move is still ply 1, and o hears only of it.
        x.send(#"{"type":"move","game":\#(game),"move":"b6"}"#)
        let expected = try Position.start.play(Move(notation: "b6"))
        for client in [x, o] {
            guard case .moved(let moved) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == 1 && moved.fen == expected.fen && moved.move == "b6")
        }
        await server.stop()
    }

    @Test func resigningEndsTheGameForBoth() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        // Two moves each, so that the resignation is rated.
        try await playGreedily(paired, plies: 4)
        let resigned = try await paired.clients[.o]!.exchange(
            #"{"type":"resign","game":\#(paired.game),"id":"r"}"#)
        let end = try Wire.reply(fromLine: Array(resigned.utf8))
        #expect(end.id == .string("r"))
        guard case .end(let mine) = end.message,
            case .end(let theirs) = try await paired.clients[.x]!.reply().message
        else { throw TestClient.Failure(description: "expected end") }
        #expect(mine.outcome == .resignation(by: .o) && mine.rating.after < 1500)
        #expect(theirs.outcome == .resignation(by: .o) && theirs.rating.after > 1500)
        #expect(mine.rating.after - 1500 == 1500 - theirs.rating.after)
        // Both may seek again.
        #expect(try await paired.clients[.x]!.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        #expect(try await paired.clients[.x]!.exchange(#"{"type":"seek"}"#).contains("already_seeking"))
        #expect(
            try await paired.clients[.x]!.exchange(#"{"type":"cancel","id":4}"#)
                == #"{"id":4,"type":"cancelled"}"#)
        await server.stop()
    }

    @Test func theServerFlagsAPlayerWhoseTimeRunsOutWithoutAnyMessage() async throws {
        // Below the production limit, so that the clock runs out before the first-move abort.
        let server = try await TestServer { $0.initialClockRange = 1...10_800 }
        let paired = try await pairedGame(server, initial: 1, increment: 0)
        // Nobody sends anything: the server's own clock ends the game, and a loss on time
        // before both sides made two moves rates nothing (no farming with a 1-second clock).
        server.clock.advance(by: .milliseconds(999))
        #expect(try await paired.clients[.x]!.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        try await server.clock.advanceWhenArmed(by: .milliseconds(1))
        for side in Side.allCases {
            guard case .end(let end) = try await paired.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected end")
            }
            #expect(end.outcome == Outcome(winner: .o, reason: .timeout))
            #expect(end.rating == RatingChange(before: 1500, after: 1500))
        }
        let profile = try await paired.clients[.o]!.exchange(
            #"{"type":"profile","name":"\#(paired.names[.o]!)"}"#)
        #expect(profile.contains(#""games":0"#) && profile.contains(#""rating_change":0"#))
        await server.stop()
    }

    /// The last three were once a crash of the whole server (seconds to milliseconds overflowed).
    @Test(arguments: [
        (14, 0), (1, 0), (10_801, 0), (60, 601), (10_000_000_000_000_000, 0), (-10_000_000_000_000_000, 0),
        (60, 9_223_372_036_854_775_807),
    ])
    func aSeekOutsideTheServersClockLimitsIsABadRequest(initial: Int, increment: Int) async throws {
        #expect(ServerSettings().initialClockRange == 15...10_800)
        let server = try await TestServer()
        let ann = try server.client()
        try await register(ann, "ann")
        #expect(
            try await ann.exchange(#"{"type":"seek","initial":\#(initial),"increment":\#(increment)}"#)
                == #"{"code":"bad_request","message":"initial is 15 to 10800 seconds, increment 0 to 600","type":"error"}"#
        )
        #expect(
            try await ann.exchange(#"{"type":"seek","initial":15,"increment":0}"#) == #"{"type":"seeking"}"#)
        await server.stop()
    }

    @Test func aPlayerReconnectsWithTheirTokenAndPlaysOn() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        let game = paired.game
        let x = paired.clients[.x]!
        let o = paired.clients[.o]!
        x.send(#"{"type":"move","game":\#(game),"move":"b6"}"#)
        _ = try await x.reply()
        _ = try await o.reply()
        o.close()

        let back = try server.client()
        let welcome = try await back.exchange(#"{"type":"auth","token":"\#(paired.tokens[.o]!)"}"#)
        #expect(welcome.contains(#""type":"welcome""#))
        guard case .game(let state) = try await back.reply().message else {
            throw TestClient.Failure(description: "expected game")
        }
        #expect(state.game == game && state.color == .o && state.moves == ["b6"])
        #expect(state.opponent == Opponent(name: paired.names[.x]!, rating: 1500))
        #expect(state.fen == (try Position.start.play(Move(notation: "b6"))).fen)
        // The server's clock stood still: x has its increment, and o's clock has not moved.
        #expect(state.clock == Clocks(x: 303_000, o: 300_000))

        back.send(#"{"type":"move","game":\#(game),"move":"f6"}"#)
        for client in [back, x] {
            guard case .moved(let moved) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == 2 && moved.move == "f6")
        }
        await server.stop()
    }

    @Test func aPlayerAwayPastTheGracePeriodLosesByAbandon() async throws {
        let server = try await TestServer { $0.abandonGrace = .milliseconds(300) }
        let paired = try await pairedGame(server)
        paired.clients[.x]!.close()
        // The grace period counts from when the server saw x go.
        try await server.clock.advanceWhenArmed(by: .milliseconds(300))
        guard case .end(let end) = try await paired.clients[.o]!.reply().message else {
            throw TestClient.Failure(description: "expected end")
        }
        // Left before a move: the game is not rated.
        #expect(
            end.outcome == Outcome(winner: .o, reason: .abandonment)
                && end.rating == RatingChange(before: 1500, after: 1500))
        await server.stop()
    }

    @Test func theStandingsSurviveARestartOnTheSameFile() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        try await playGreedily(paired, plies: 4)
        _ = try await paired.clients[.x]!.exchange(#"{"type":"resign","game":\#(paired.game)}"#)
        _ = try await paired.clients[.o]!.reply()
        let before = try await paired.clients[.o]!.exchange(#"{"type":"leaderboard"}"#)
        let profileBefore = try await paired.clients[.o]!.exchange(#"{"type":"profile","name":"ann"}"#)
        paired.clients[.x]!.close()
        paired.clients[.o]!.close()
        await server.stop()

        let restarted = try await TestServer(database: server.database)
        let client = try restarted.client()
        #expect(try await client.exchange(#"{"type":"leaderboard"}"#) == before)
        #expect(try await client.exchange(#"{"type":"profile","name":"ann"}"#) == profileBefore)
        #expect(before.contains(#""total":2"#))
        // And the accounts: logging in works on the new server.
        #expect(try await logsIn(client, as: "bob"))
        await restarted.stop()
    }

    @Test func anUnfinishedGameResumesAfterARestart() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        let game = paired.game
        paired.clients[.x]!.send(#"{"type":"move","game":\#(game),"move":"b6"}"#)
        guard case .moved(let moved) = try await paired.clients[.x]!.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        _ = try await paired.clients[.o]!.reply()
        await server.stop()
        // Stopping the server tells every connection and closes it.
        #expect(try await paired.clients[.x]!.linesUntilClosed() == [#"{"type":"shutdown"}"#])
        #expect(try await paired.clients[.o]!.linesUntilClosed() == [#"{"type":"shutdown"}"#])

        let restarted = try await TestServer(database: server.database)
        var clients: [Side: TestClient] = [:]
        for side in Side.allCases {
            let client = try restarted.client()
            #expect(
                try await client.exchange(#"{"type":"auth","token":"\#(paired.tokens[side]!)"}"#).contains(
                    "welcome"))
            guard case .game(let state) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected game")
            }
            #expect(state.game == game && state.color == side && state.moves == ["b6"])
            // The clocks stood still while the server was down and until both were back.
            #expect(state.clock == moved.clock)
            clients[side] = client
        }
        clients[.o]!.send(#"{"type":"move","game":\#(game),"move":"f6"}"#)
        for side in Side.allCases {
            guard case .moved(let moved) = try await clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == 2 && moved.move == "f6")
        }
        await restarted.stop()
    }
}

@Suite struct DeadGameTests {
    /// The server stopped after a game's last move was stored but before its result was (here:
    /// the hundredth ply without a clone, a draw by the rules). At the next start the game is
    /// not resumed as a game nobody can move in (to be lost on time): it ends as the rules say,
    /// rated once.
    @Test func aGameWhoseLastMoveEndedItEndsAsTheRulesSayAtTheNextStart() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        await server.stop()
        let storage = try SQLiteStorage(path: server.database.path)
        // Jumps back and forth that take nothing: no clone in 100 plies.
        let cycle = ["g1e1", "a1c1", "e1g1", "c1a1"].map { try! Move(notation: $0) }
        var position = Position.start
        for ply in 1...100 {
            #expect(position.outcome == nil)
            let move = cycle[(ply - 1) % 4]
            position = try position.play(move)
            try await storage.recordMove(
                gameID: paired.game, ply: ply, move: move, clocks: Clocks(x: 300_000, o: 300_000), now: Date()
            )
        }
        let outcome = try #require(position.outcome)
        #expect(outcome.winner == nil)

        let restarted = try await TestServer(database: server.database)
        let stored = try DatabaseQueue(path: server.database.path).read { db in
            try Row.fetchOne(
                db, sql: "SELECT result, reason FROM game WHERE id = ?", arguments: [paired.game])
        }
        #expect(stored?["result"] == "draw" && stored?["reason"] == outcome.reason.rawValue)
        #expect(await !restarted.server!.lobby.isInProgress(paired.game))
        await restarted.stop()
    }
}

@Suite struct ServerEdgeTests {
    @Test func theLineLimitIsExactAndSlowClientsAreReadWhole() async throws {
        let server = try await TestServer()
        let client = try server.client()
        let frame = #"{"type":"ping","id":1,"pad":""}"#
        let longest =
            #"{"type":"ping","id":1,"pad":""# + String(repeating: "p", count: 4096 - frame.count) + #""}"#
        #expect(longest.utf8.count == 4096)
        #expect(try await client.exchange(longest) == #"{"id":1,"type":"pong"}"#)
        let over =
            #"{"type":"ping","id":1,"pad":""# + String(repeating: "p", count: 4097 - frame.count) + #""}"#
        #expect(try await client.exchange(over).contains("line_too_long"))
        // One byte at a time.
        for byte in Array(#"{"type":"ping","id":2}"#.utf8) + [UInt8(ascii: "\n")] { client.sendBytes([byte]) }
        #expect(try await client.line() == #"{"id":2,"type":"pong"}"#)
        // Several lines in one write.
        client.sendBytes(Array("{\"type\":\"ping\",\"id\":3}\n\n{\"type\":\"ping\",\"id\":4}\n".utf8))
        #expect(try await client.line() == #"{"id":3,"type":"pong"}"#)
        #expect(try await client.line().contains("bad_json"))
        #expect(try await client.line() == #"{"id":4,"type":"pong"}"#)
        await server.stop()
    }

    @Test func coloursAlternateBetweenTheSamePlayers() async throws {
        // After one game the ratings are 324 apart: the gap widens fast here so they meet again soon.
        let server = try await TestServer { $0.pairingWidening = 2000 }
        let first = try await pairedGame(server)
        _ = try await first.clients[.x]!.exchange(#"{"type":"resign","game":\#(first.game)}"#)
        _ = try await first.clients[.o]!.reply()
        for side in Side.allCases {
            #expect(try await first.clients[side]!.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        }
        for side in Side.allCases {
            guard case .start(let start) = try await first.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            #expect(start.color == side.opponent && start.game != first.game)
        }
        await server.stop()
    }

    @Test func anExpiredTokenLetsNoOneIn() async throws {
        let server = try await TestServer { $0.tokenLifetime = .seconds(60) }
        let clock = server.clock
        let client = try server.client()
        let token = try await register(client, "ann")
        clock.advance(by: .seconds(59))
        #expect(try await client.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        clock.advance(by: .seconds(1))
        #expect(
            try await client.exchange(#"{"type":"auth","token":"\#(token)"}"#)
                == #"{"code":"bad_credentials","message":"unknown or expired token; log in again","type":"error"}"#
        )
        await server.stop()
    }

    @Test func neitherTokensNorPasswordsAreStoredInClear() async throws {
        let server = try await TestServer()
        let client = try server.client()
        let token = try await register(client, "ann", password: "hunter2-secret")
        await server.stop()
        var stored = Data()
        for suffix in ["", "-wal"] {
            stored += (try? Data(contentsOf: URL(fileURLWithPath: server.database.path + suffix))) ?? Data()
        }
        #expect(stored.count > 0)
        #expect(stored.range(of: Data(token.utf8)) == nil)
        #expect(stored.range(of: Data("hunter2-secret".utf8)) == nil)
        #expect(stored.range(of: Data("scrypt$4$1$1$".utf8)) != nil)
        #expect(stored.range(of: Data(SessionToken.digest(of: token)!)) != nil)
    }

    @Test func randomGarbageGetsOneErrorALineAndChangesNothing() async throws {
        // Every line spends the message budget, which is tested on its own: room for all of them.
        let server = try await TestServer { $0.messageBurst = 1000 }
        let client = try server.client()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let fragments = Array(#"{"type":"move","game":1,"move":"a1","id":[]}"#.utf8)
        for round in 0..<200 {
            let length = Int(next() % 120)
            var line: [UInt8] = (0..<length).map { _ in
                // Half the lines are mutated protocol text, half pure noise.
                round.isMultiple(of: 2)
                    ? fragments[Int(next() % UInt64(fragments.count))] : UInt8(next() % 256)
            }
            line.removeAll { $0 == UInt8(ascii: "\n") }
            client.sendBytes(line + [UInt8(ascii: "\n")])
            let reply = try await client.line()
            #expect(reply.contains(#""type":"error""#), "\(line) → \(reply)")
        }
        #expect(
            try await client.exchange(#"{"type":"ping","id":"alive"}"#) == #"{"id":"alive","type":"pong"}"#)
        #expect(
            try await client.exchange(#"{"type":"leaderboard"}"#)
                == #"{"entries":[],"total":0,"type":"leaderboard"}"#)
        await server.stop()
    }

    @Test func loggingInWithThePasswordMidGameAlsoBringsTheGame() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        paired.clients[.x]!.close()
        let back = try server.client()
        let name = paired.names[.x]!
        let welcome = try await back.exchange(
            #"{"type":"login","name":"\#(name)","password":"password1","id":5}"#)
        #expect(welcome.hasPrefix(#"{"games":0,"id":5,"name":"\#(name)","rating":1500,"rd":350,"token":""#))
        guard case .game(let state) = try await back.reply().message else {
            throw TestClient.Failure(description: "expected game")
        }
        #expect(state.game == paired.game && state.color == .x && state.moves.isEmpty)
        #expect(state.control == TimeControl(initial: 300, increment: 3))
        await server.stop()
    }
}
