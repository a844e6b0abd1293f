import Foundation
import GRDB
import Logging
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import Synchronization
import Testing

@testable import NanashiServer

// Bad input, floods, idle and non-reading clients, restarts and secrets: each gets a clear error
// or a clean close, and everyone else goes on being served.

@Suite struct BadInputTests {
    @Test(arguments: [
        // Fields nobody asked for are ignored.
        (#"{"type":"ping","id":1,"extra":{"deep":[1,2,{"x":null}]},"x":1e999}"#, #"{"id":1,"type":"pong"}"#),
        (
            #"{"type":"move","game":"1","move":"b6","id":2}"#,
            #"{"code":"bad_request","id":2,"message":"field 'game' has the wrong type","type":"error"}"#
        ),
        (
            #"{"type":"move","game":99999999999999999999,"move":"b6"}"#,
            #"{"code":"bad_request","message":"a number is out of range","type":"error"}"#
        ),
        // A number beyond a double's range is not JSON to the decoder.
        (
            #"{"type":"move","game":1e400,"move":"b6"}"#,
            #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#
        ),
        (
            #"{"type":"leaderboard","limit":-1}"#,
            #"{"code":"bad_request","message":"limit is 1 to 100, offset 0 or more","type":"error"}"#
        ),
        (
            #"{"type":"leaderboard","limit":2.5}"#,
            #"{"code":"bad_request","message":"a number is out of range","type":"error"}"#
        ),
        (#"[1,2]"#, #"{"code":"bad_request","message":"a message must be a JSON object","type":"error"}"#),
        (#""ping""#, #"{"code":"bad_request","message":"a message must be a JSON object","type":"error"}"#),
        (
            #"{"type":7}"#,
            #"{"code":"bad_request","message":"field 'type' has the wrong type","type":"error"}"#
        ),
        (#"{"id":3}"#, #"{"code":"bad_request","id":3,"message":"missing field 'type'","type":"error"}"#),
        (
            #"{"type":"ping""#,
            #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#
        ),
        (
            String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000),
            #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#
        ),
        (
            String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600),
            #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#
        ),
        (
            #"{"type":"register","name":"\u0000ann","password":"password1"}"#,
            #"{"code":"bad_name","message":"a name is 3 to 20 characters of A-Z, a-z, 0-9, _ and -","type":"error"}"#
        ),
    ])
    func malformedMessagesGetExactErrors(line: String, reply: String) async throws {
        let server = try await TestServer()
        let client = try server.client()
        #expect(try await client.exchange(line) == reply)
        #expect(try await client.exchange(#"{"type":"ping","id":"ok"}"#) == #"{"id":"ok","type":"pong"}"#)
        await server.stop()
    }

    @Test func binaryGarbageAndBadUTF8AreRefused() async throws {
        let server = try await TestServer()
        let client = try server.client()
        let badJSON = #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#
        for bytes: [UInt8] in [
            [0x00, 0xFF, 0xFE, 0x01], [0xC3, 0x28], Array(#"{"type":"ping","id":"\#u{FFFF}"#.utf8) + [0xFF],
            [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D],
        ] {
            client.sendBytes(bytes + [UInt8(ascii: "\n")])
            #expect(try await client.line() == badJSON, "\(bytes)")
        }
        #expect(try await client.exchange(#"{"type":"ping","id":1}"#) == #"{"id":1,"type":"pong"}"#)
        await server.stop()
    }

    @Test func aHalfLineHoldsUpNoOneAndIsDroppedAtClose() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        let slow = try server.client()
        // Half a message, then one byte at a time, while a game is played next to it.
        slow.sendBytes(Array(#"{"type":"pi"#.utf8))
        var rest = Array(#"ng","id":7}"#.utf8)
        for (side, move) in [(Side.x, "b6"), (.o, "f6"), (.x, "f2")] {
            paired.clients[side]!.send(#"{"type":"move","game":\#(paired.game),"move":"\#(move)"}"#)
            for viewer in Side.allCases {
                guard case .moved(let moved) = try await paired.clients[viewer]!.reply().message else {
                    throw TestClient.Failure(description: "expected moved")
                }
                #expect(moved.move.description == move)
            }
            slow.sendBytes([rest.removeFirst()])
        }
        for byte in rest + [UInt8(ascii: "\n")] { slow.sendBytes([byte]) }
        #expect(try await slow.line() == #"{"id":7,"type":"pong"}"#)
        // A half line left at close is dropped; the server carries on.
        slow.sendBytes(Array(#"{"type":"resign","game":1"#.utf8))
        slow.close()
        #expect(try await paired.clients[.x]!.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }

    @Test func aClientThatStopsSendingGetsEveryReplyThenTheClose() async throws {
        let server = try await TestServer { $0.messageBurst = 10_000 }
        // Many replies and a small receive buffer, so that replies are still on their way when
        // the server sees the client shut its side (as `nc -N` does): all of them arrive, in
        // order, and then the close.
        let client = try TestClient(port: server.port, receiveBuffer: 4096)
        let padding = String(repeating: "q", count: 56)
        let requests = (1...3000).map { #"{"type":"ping","id":"\#($0)\#(padding)"}"# }
        client.sendBytes(Array((requests.joined(separator: "\n") + "\n{\"type\"\n").utf8))
        client.finishSending()
        try await Task.sleep(for: .milliseconds(300))
        #expect(
            try await client.linesUntilClosed()
                == (1...3000).map { #"{"id":"\#($0)\#(padding)","type":"pong"}"# } + [
                    #"{"code":"bad_json","message":"not a JSON object on one UTF-8 line","type":"error"}"#
                ])
        await server.stop()
    }
}

@Suite struct ConnectionLimitTests {
    @Test func aFloodIsRateLimitedThenCutOff() async throws {
        // A refill so slow that none happens during the test: the counts are exact.
        let server = try await TestServer {
            $0.messageBurst = 10
            $0.messageRate = 0.001
        }
        let flooder = try server.client()
        let bystander = try server.client()
        // Forty lines in one write: the first ten spend the burst, ten more are refused, and the
        // one after that is cut off.
        flooder.sendBytes(Array(String(repeating: "{\"type\":\"ping\",\"id\":1}\n", count: 40).utf8))
        let lines = try await flooder.linesUntilClosed()
        let pong = #"{"id":1,"type":"pong"}"#
        let limited =
            #"{"code":"rate_limited","id":1,"message":"too many messages; slow down (at most 0.001 a second)","type":"error"}"#
        let cut = #"{"code":"rate_limited","id":1,"message":"too many messages; closing","type":"error"}"#
        #expect(
            lines == Array(repeating: pong, count: 10) + Array(repeating: limited, count: 10) + [cut])
        #expect(try await bystander.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }

    @Test func linesSentOneAtATimeSpendTheBudgetToo() async throws {
        // The budget is over time, not per read: waiting for each reply does not make a line free.
        let server = try await TestServer {
            $0.messageBurst = 3
            $0.messageRate = 0.001
        }
        let client = try server.client()
        for id in 0..<3 {
            #expect(
                try await client.exchange(#"{"type":"ping","id":\#(id)}"#) == #"{"id":\#(id),"type":"pong"}"#)
        }
        #expect(
            try await client.exchange(#"{"type":"ping","id":3}"#)
                == #"{"code":"rate_limited","id":3,"message":"too many messages; slow down (at most 0.001 a second)","type":"error"}"#
        )
        await server.stop()
    }

    /// Queries that read the database spend one budget per address, over all its connections:
    /// a client that has spent it gets nothing more by connecting again, its pings and games are
    /// not held up, and another address is served.
    @Test func queriesFromOneAddressShareOneBudgetOverItsConnections() async throws {
        let server = try await TestServer { $0.readBurstPerAddress = 3 }
        let first = try server.client()
        for id in 0..<3 {
            #expect(
                try await first.exchange(#"{"type":"leaderboard","id":\#(id)}"#)
                    == #"{"entries":[],"id":\#(id),"total":0,"type":"leaderboard"}"#)
        }
        let again = try server.client()
        let limited =
            #""code":"rate_limited","id":3,"message":"too many queries from your address; slow down (at most 20 a second)","type":"error"}"#
        #expect(try await again.exchange(#"{"type":"profile","name":"nobody","id":3}"#) == "{" + limited)
        #expect(try await first.exchange(#"{"type":"live","id":3}"#) == "{" + limited)
        #expect(try await again.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        let other = try server.client(from: "127.0.0.2")
        #expect(
            try await other.exchange(#"{"type":"leaderboard","id":4}"#)
                == #"{"entries":[],"id":4,"total":0,"type":"leaderboard"}"#)
        // A second later the budget has 20 more.
        server.clock.advance(by: .seconds(1))
        #expect(
            try await again.exchange(#"{"type":"leaderboard","id":5}"#)
                == #"{"entries":[],"id":5,"total":0,"type":"leaderboard"}"#)
        await server.stop()
    }

    /// Taking or refusing challenges is a write that every node hears of, so it spends the
    /// address's budget as a query does: one address cannot make a flood of writes of it, and
    /// the one refused changes nothing.
    @Test func challengeSettingsSpendTheAddressBudget() async throws {
        let server = try await TestServer { $0.readBurstPerAddress = 2 }
        let eve = try server.client()
        let token = try await register(eve, "eve")
        for accept in [false, true] {
            #expect(
                try await eve.exchange(#"{"type":"challenges","accept":\#(accept)}"#)
                    == #"{"accept":\#(accept),"type":"challenges"}"#)
        }
        #expect(
            try await eve.exchange(#"{"type":"challenges","accept":false,"id":3}"#)
                == #"{"code":"rate_limited","id":3,"message":"too many queries from your address; slow down (at most 20 a second)","type":"error"}"#
        )
        // Still taking challenges, as stored: a second later a new session is welcomed so.
        server.clock.advance(by: .seconds(1))
        #expect(
            try await server.client().exchange(#"{"type":"auth","token":"\#(token)"}"#)
                == #"{"games":0,"name":"eve","rating":1500,"rd":350,"token":"\#(token)","type":"welcome"}"#)
        await server.stop()
    }

    @Test func aClientThatSlowsDownIsServedAgain() async throws {
        let server = try await TestServer {
            $0.messageBurst = 2
            $0.messageRate = 4
        }
        let client = try server.client()
        let twice = Array(String(repeating: "{\"type\":\"ping\"}\n", count: 2).utf8)
        client.sendBytes(Array(String(repeating: "{\"type\":\"ping\"}\n", count: 4).utf8))
        for _ in 0..<2 { #expect(try await client.line() == #"{"type":"pong"}"#) }
        for _ in 0..<2 { #expect(try await client.line().hasPrefix(#"{"code":"rate_limited","#)) }
        // Four refused and granted at 4 a second leave it at minus two: a second refills two.
        server.clock.advance(by: .seconds(1))
        client.sendBytes(twice)
        for _ in 0..<2 { #expect(try await client.line() == #"{"type":"pong"}"#) }
        await server.stop()
    }

    @Test func anIdleConnectionIsClosedWithAReasonAndABusyOneIsNot() async throws {
        // Looked at every half second of the server's clock (a quarter of the timeout).
        let server = try await TestServer { $0.idleTimeout = .seconds(2) }
        let clients = try (0..<3).map { _ in try server.client() }
        for client in clients {
            #expect(try await client.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        }
        let (idle, trickle, busy) = (clients[0], clients[1], clients[2])
        // A line that never ends counts as nothing: one byte at a time is idle too.
        for _ in 0..<4 {
            #expect(try await busy.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
            trickle.sendBytes([UInt8(ascii: " ")])
            try await server.clock.advanceWhenArmed(by: .milliseconds(500))
        }
        let closing = #"{"code":"idle_timeout","message":"no message for 2 s; closing","type":"error"}"#
        #expect(try await idle.linesUntilClosed() == [closing])
        #expect(try await trickle.linesUntilClosed() == [closing])
        #expect(try await busy.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }

    @Test func aClientThatNeverReadsIsClosedAndOthersAreServed() async throws {
        let server = try await TestServer {
            $0.maximumQueuedBytes = 64 * 1024
            $0.messageBurst = 1_000_000
            $0.socketSendBuffer = 4096
        }
        let deaf = try TestClient(port: server.port, receiveBuffer: 4096)
        let bystander = try server.client()
        // Each reply echoes the longest id: the server has megabytes to write and the client takes none.
        let sent = await deaf.sendRepeatedly(longestPing, times: 100_000)
        #expect(sent < 100_000, "the server never gave up on a client that does not read")
        _ = try await deaf.linesUntilClosed()
        #expect(try await bystander.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }
}

@Suite struct RestartTests {
    /// Plays `b6` in a new game, stops the server and returns the game with the clocks stored.
    private func gameLeftAfterOneMove(_ server: TestServer) async throws -> (PairedGame, Clocks) {
        let paired = try await pairedGame(server)
        paired.clients[.x]!.send(#"{"type":"move","game":\#(paired.game),"move":"b6"}"#)
        guard case .moved(let moved) = try await paired.clients[.x]!.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        _ = try await paired.clients[.o]!.reply()
        await server.stop()
        return (paired, moved.clock)
    }

    private func auth(_ client: TestClient, _ token: String) async throws -> GameState {
        #expect(try await client.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        guard case .game(let state) = try await client.reply().message else {
            throw TestClient.Failure(description: "expected game")
        }
        return state
    }

    @Test func clocksStandStillUntilBothPlayersAreBack() async throws {
        let server = try await TestServer()
        let (paired, stored) = try await gameLeftAfterOneMove(server)
        let restarted = try await TestServer(database: server.database)
        let o = try restarted.client()
        #expect(try await auth(o, paired.tokens[.o]!).clock == stored)
        // o is to move but x is not back: o's clock does not run.
        restarted.clock.advance(by: .milliseconds(200))
        let again = try restarted.client()
        #expect(try await auth(again, paired.tokens[.o]!).clock == stored)
        // o may move meanwhile; it costs no time.
        again.send(#"{"type":"move","game":\#(paired.game),"move":"f6"}"#)
        guard case .moved(let moved) = try await again.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        #expect(moved.clock == Clocks(x: stored.x, o: stored.o + 3000))
        let x = try restarted.client()
        #expect(try await auth(x, paired.tokens[.x]!).clock == moved.clock)
        // Both back: x's clock runs now.
        restarted.clock.advance(by: .milliseconds(50))
        let third = try restarted.client()
        #expect(
            try await auth(third, paired.tokens[.x]!).clock == Clocks(x: moved.clock.x - 50, o: moved.clock.o)
        )
        await restarted.stop()
    }

    @Test func aResumedGameWithoutBothFirstMovesIsAbortedOnceBothAreBack() async throws {
        let server = try await TestServer()
        let (paired, _) = try await gameLeftAfterOneMove(server)
        let restarted = try await TestServer(database: server.database) { $0.firstMoveLimit = .seconds(10) }
        let x = try restarted.client()
        _ = try await auth(x, paired.tokens[.x]!)
        restarted.clock.advance(by: .seconds(5))
        let o = try restarted.client()
        _ = try await auth(o, paired.tokens[.o]!)
        // o never makes its first move: the limit counts from when both were back.
        restarted.clock.advance(by: .milliseconds(9_999))
        #expect(try await x.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        try await restarted.clock.advanceWhenArmed(by: .milliseconds(1))
        for client in [x, o] {
            guard case .end(let end) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected end")
            }
            #expect(
                end.outcome == Outcome(winner: nil, reason: .aborted)
                    && end.rating == RatingChange(before: 1500, after: 1500))
        }
        await restarted.stop()
    }

    @Test func aPlayerWhoDoesNotComeBackLosesByAbandon() async throws {
        let server = try await TestServer()
        let (paired, _) = try await gameLeftAfterOneMove(server)
        let restarted = try await TestServer(database: server.database) { $0.abandonGrace = .seconds(10) }
        let x = try restarted.client()
        _ = try await auth(x, paired.tokens[.x]!)
        // o's grace period began at the restart.
        restarted.clock.advance(by: .milliseconds(9_999))
        #expect(try await x.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        restarted.clock.advance(by: .milliseconds(1))
        guard case .end(let end) = try await x.reply().message else {
            throw TestClient.Failure(description: "expected end")
        }
        // One move only: abandoned before two moves each, the game is not rated.
        #expect(
            end.outcome == Outcome(winner: .x, reason: .abandonment)
                && end.rating == RatingChange(before: 1500, after: 1500))
        await restarted.stop()
    }

    @Test func whenNeitherComesBackTheSideToMoveLoses() async throws {
        let server = try await TestServer()
        let (paired, _) = try await gameLeftAfterOneMove(server)
        let restarted = try await TestServer(database: server.database)
        // Both grace periods began at the restart, and end together.
        restarted.clock.advance(by: ServerSettings().abandonGrace)
        let profile = try await profile(of: paired.names[.o]!, on: restarted, once: #""reason":"abandon""#)
        #expect(profile.contains(#""outcome":{"reason":"abandon","winner":"x"}"#), "\(profile)")
        await restarted.stop()
    }

    @Test func stoppingTellsEveryClientAndRefusesNewOnes() async throws {
        let server = try await TestServer()
        let first = try server.client()
        let second = try server.client()
        #expect(try await first.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        #expect(try await second.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        let port = server.port
        await server.stop()
        #expect(try await first.linesUntilClosed() == [#"{"type":"shutdown"}"#])
        #expect(try await second.linesUntilClosed() == [#"{"type":"shutdown"}"#])
        #expect(throws: TestClient.Failure.self) { try TestClient(port: port) }
    }
}

@Suite struct StopTests {
    @Test func aClientThatDoesNotReadCannotHoldUpAStop() async throws {
        let server = try await TestServer {
            $0.maximumQueuedBytes = 64 * 1024 * 1024
            $0.messageBurst = 1_000_000
            $0.shutdownGrace = .milliseconds(200)
            $0.socketSendBuffer = 4096
        }
        let deaf = try TestClient(port: server.port, receiveBuffer: 4096)
        // Replies the client never takes, past the kernel's buffers: the server's writer waits
        // on the socket.
        #expect(await deaf.sendRepeatedly(longestPing, times: 3000) == 3000)
        deaf.send(#"{"type":"register","name":"deaf","password":"password1"}"#)
        try await waitForPlayer("deaf", on: server)
        #expect(try await server.client().exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        let running = try #require(server.server)
        let clock = server.clock
        await server.stop()
        try await clock.advanceWhenArmed(by: .milliseconds(200))
        // Waited for in a task of its own, so a failure shows as `false`, not as a hung test.
        let stopped = StopFlag()
        Task {
            await running.waitUntilStopped()
            stopped.value.store(true, ordering: .relaxed)
        }
        for _ in 0..<200 where !stopped.value.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let hasStopped = stopped.value.load(ordering: .relaxed)
        #expect(hasStopped, "the server waited for a client that does not read")
    }
}

private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}

@Suite struct SecretTests {
    @Test(arguments: [
        "AAAA",
        String(repeating: "A", count: 43),
        String(repeating: "A", count: 10_000),
        "not a token at all!",
        "",
    ])
    func aTokenNobodyWasGivenLetsNoOneIn(token: String) async throws {
        let server = try await TestServer()
        let client = try server.client()
        try await register(client, "ann")
        let other = try server.client()
        let reply = try await other.exchange(#"{"type":"auth","token":"\#(token)"}"#)
        if token.utf8.count > 4000 {
            #expect(reply.contains(#""code":"line_too_long""#))
        } else {
            #expect(
                reply
                    == #"{"code":"bad_credentials","message":"unknown or expired token; log in again","type":"error"}"#
            )
        }
        #expect(try await other.exchange(#"{"type":"seek"}"#).contains("not_authenticated"))
        await server.stop()
    }

    @Test func neitherPasswordsNorTokensAppearInTheLog() async throws {
        let log = CapturedLog()
        let server = try await TestServer(logger: Logger(label: "test") { _ in log.handler() })
        let password = "correct-horse-battery"
        let client = try server.client()
        let registered = try await register(client, "ann", password: password)
        let second = try server.client()
        let login = try await second.exchange(#"{"type":"login","name":"ann","password":"\#(password)"}"#)
        let loggedIn = try #require(login.split(separator: "\"token\":\"").last?.split(separator: "\"").first)
        #expect(
            try await second.exchange(#"{"type":"login","name":"ann","password":"wrong-\#(password)"}"#)
                .contains("bad_credentials"))
        let third = try server.client()
        #expect(try await third.exchange(#"{"type":"auth","token":"\#(registered)"}"#).contains("welcome"))
        #expect(try await third.exchange(#"{"type":"logout"}"#) == #"{"type":"bye"}"#)
        #expect(
            try await third.exchange(#"{"type":"auth","token":"\#(registered)"}"#).contains("bad_credentials")
        )
        client.close()
        second.close()
        third.close()
        await server.stop()

        var stored = Data()
        for suffix in ["", "-wal"] {
            stored += (try? Data(contentsOf: URL(fileURLWithPath: server.database.path + suffix))) ?? Data()
        }
        for secret in [password, registered, String(loggedIn)] {
            #expect(stored.range(of: Data(secret.utf8)) == nil, "\(secret) is in the database")
        }
        // The login's token is there as its digest only.
        #expect(stored.range(of: Data(SessionToken.digest(of: String(loggedIn))!)) != nil)

        let text = log.text
        #expect(text.contains("logged in"), "the log was captured")
        for secret in [password, registered, String(loggedIn)] {
            #expect(!text.contains(secret), "\(secret) is in the log")
            let digest = SessionToken.digest(of: secret) ?? Array(secret.utf8)
            let hex = digest.map { String(format: "%02x", $0) }.joined()
            #expect(!text.lowercased().contains(hex))
            #expect(!text.contains(Base64URL.encode(digest)))
        }
    }
}

/// Everything a logger was asked to write at `level` or above (every level by default), with
/// its metadata: each line with the seconds since the log began and the label of the logger
/// that wrote it.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])
    private let began = ContinuousClock.now
    private let level: Logger.Level

    init(level: Logger.Level = .trace) { self.level = level }

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    func handler(label: String = "") -> some LogHandler {
        Handler(log: self, label: label, logLevel: level)
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        let label: String
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let since = (ContinuousClock.now - log.began).components
            let seconds = String(format: "%.3f", Double(since.seconds) + Double(since.attoseconds) / 1e18)
            let writer = label.isEmpty ? "" : " \(label)"
            log.lines.withLock { $0.append("\(seconds)\(writer) \(event.level) \(event.message) \(all)") }
        }
    }
}

@Suite struct DurabilityTests {
    /// Runs SQL on the server's database file from outside, as an operator (or a failing disk) might.
    private func execute(_ sql: String, on server: TestServer) throws {
        let queue = try DatabaseQueue(path: server.database.path)
        try queue.write { db in try db.execute(sql: sql) }
    }

    @Test func aMoveThatCannotBeStoredIsNotAnnounced() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        try execute(
            "CREATE TRIGGER hold BEFORE INSERT ON move BEGIN SELECT RAISE(ABORT, 'held'); END", on: server)
        #expect(
            try await paired.clients[.x]!.exchange(
                #"{"type":"move","game":\#(paired.game),"move":"b6","id":1}"#)
                == #"{"code":"internal_error","id":1,"message":"the move could not be stored; play it again","type":"error"}"#
        )
        // The opponent heard nothing of it.
        #expect(try await paired.clients[.o]!.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        try execute("DROP TRIGGER hold", on: server)
        paired.clients[.x]!.send(#"{"type":"move","game":\#(paired.game),"move":"b6"}"#)
        for side in Side.allCases {
            guard case .moved(let moved) = try await paired.clients[side]!.reply().message else {
                throw TestClient.Failure(description: "expected moved")
            }
            #expect(moved.ply == 1 && moved.move == "b6")
        }
        await server.stop()
    }

    @Test func aMoveThatWaitsForALockedDatabaseCostsTheMoverNoTime() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(1) }
        let paired = try await pairedGame(server)
        // Another process holds the write lock: the move waits for it, a second, then fails.
        let lock = try WriteLockHolder(path: server.database.path)
        // x's clock has run since the start, as it should: until the move is read.
        server.clock.advance(by: .milliseconds(1_234))
        #expect(
            try await paired.clients[.x]!.exchange(
                #"{"type":"move","game":\#(paired.game),"move":"b6","id":1}"#)
                == #"{"code":"internal_error","id":1,"message":"the move could not be stored; play it again","type":"error"}"#
        )
        lock.release()
        paired.clients[.x]!.send(#"{"type":"move","game":\#(paired.game),"move":"b6"}"#)
        guard case .moved(let moved) = try await paired.clients[.x]!.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        // 300 s and 3 s of increment, less the time x took to move: the wait for the lock is
        // not charged.
        #expect(moved.clock == Clocks(x: 303_000 - 1_234, o: 300_000))
        await server.stop()
    }

    /// A game whose result storage has not taken yet has not ended: its players cannot seek
    /// (they could once, and be paired while the old game could still be rematched, or come back
    /// unfinished after a restart beside the new one); once it is stored they can.
    @Test func aPlayerWhoseResultIsStillBeingStoredCannotSeekYet() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .milliseconds(100) }
        let paired = try await pairedGame(server)
        let (x, o) = (paired.clients[.x]!, paired.clients[.o]!)
        let lock = try WriteLockHolder(path: server.database.path)
        x.send(#"{"type":"resign","game":\#(paired.game)}"#)
        // Answered after the resignation's first attempt to store the result failed.
        #expect(try await x.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        let seek = #"{"type":"seek","initial":60,"increment":0}"#
        #expect(
            try await o.exchange(seek)
                == #"{"code":"in_game","message":"you have a game in progress","type":"error"}"#)
        lock.release()
        server.clock.advance(by: .seconds(1))
        for client in [x, o] {
            guard case .end = try await client.reply().message else {
                throw TestClient.Failure(description: "expected end")
            }
        }
        #expect(try await o.exchange(seek) == #"{"type":"seeking"}"#)
        await server.stop()
    }

    /// One pairing pass pairs two couples; while the first couple's game is stored, a player of
    /// the second leaves. Their partner goes back to the pool (they once dropped out of it for
    /// good, told `seeking` and never paired) and is paired with the next seeker.
    @Test func aSeekerWhosePartnerLeftWhileAnotherGameWasStoredStaysInThePool() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(30) }
        let lobby = server.server!.lobby
        let (clients, lock) = try await twoCouplesInOnePass(server)
        clients[3].close()
        while await lobby.seekers[4] != nil { try await Task.sleep(for: .milliseconds(1)) }
        lock.release()
        for client in clients[0...1] {
            guard case .start = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
        }
        let eve = try server.client()
        _ = try await register(eve, "eve")
        #expect(
            try await eve.exchange(#"{"type":"seek","initial":60,"increment":0}"#) == #"{"type":"seeking"}"#)
        guard case .start(let start) = try await clients[2].reply().message else {
            throw TestClient.Failure(description: "expected start")
        }
        #expect(start.opponent.name == "eve")
        await server.stop()
    }

    /// The same pass, and a player of the second couple cancels and seeks another time control
    /// while the first couple's game is stored: the pass does not start the second couple's game
    /// at the control they cancelled (it once did, and left their new seek in the pool as a
    /// phantom); each is paired with a seeker of their own control.
    @Test func aSeekerWhoSoughtAgainDuringAPassIsPairedOnTheirNewSeek() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(30) }
        let (clients, lock) = try await twoCouplesInOnePass(server)
        let cat = clients[2]
        #expect(try await cat.exchange(#"{"type":"cancel"}"#) == #"{"type":"cancelled"}"#)
        #expect(
            try await cat.exchange(#"{"type":"seek","initial":120,"increment":0}"#) == #"{"type":"seeking"}"#)
        lock.release()
        for client in clients[0...1] {
            guard case .start = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
        }
        // Dan's window widens to the newcomers' 1,500 (cat's is wide enough already).
        server.clock.advance(by: .seconds(30))
        for (name, initial, seeker) in [("eve", 60, clients[3]), ("fay", 120, cat)] {
            let client = try server.client()
            _ = try await register(client, name)
            #expect(
                try await client.exchange(#"{"type":"seek","initial":\#(initial),"increment":0}"#)
                    == #"{"type":"seeking"}"#)
            guard case .start(let start) = try await seeker.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            #expect(start.opponent.name == name && start.control.initial == initial)
        }
        await server.stop()
    }

    /// Four players seeking 60+0, 600 rating points apart (none paired yet), and a pass that pairs
    /// ann with bob and cat with dan, held while ann and bob's game is stored (the database's write
    /// lock, released by the caller). Returns the four clients (players 1 to 4) and the lock.
    private func twoCouplesInOnePass(_ server: TestServer) async throws -> ([TestClient], WriteLockHolder) {
        var tokens: [String] = []
        for name in ["ann", "bob", "cat", "dan"] {
            let client = try server.client()
            tokens.append(try await register(client, name))
            client.close()
        }
        // The gap accepted widens from 100, 25 a second.
        try await DatabaseQueue(path: server.database.path).write { db in
            for (id, rating) in zip(1...4, [1_000, 1_600, 2_200, 2_800]) {
                try db.execute(sql: "UPDATE player SET rating = ? WHERE id = ?", arguments: [rating, id])
            }
        }
        var clients: [TestClient] = []
        for token in tokens {
            let client = try server.client()
            let welcome = try await client.exchange(#"{"type":"auth","token":"\#(token)"}"#)
            guard case .welcome = try Wire.reply(fromLine: Array(welcome.utf8)).message else {
                throw TestClient.Failure(description: "expected welcome, got \(welcome)")
            }
            #expect(
                try await client.exchange(#"{"type":"seek","initial":60,"increment":0}"#)
                    == #"{"type":"seeking"}"#)
            clients.append(client)
        }
        let lock = try WriteLockHolder(path: server.database.path)
        server.clock.advance(by: .seconds(30))
        while await !server.server!.lobby.starting.contains(1) { try await Task.sleep(for: .milliseconds(1)) }
        return (clients, lock)
    }

    /// A resignation that comes while a move is being stored waits for it: the move was read
    /// first, so it is played and announced, then the resignation ends the game. (It once ended
    /// the game at once: the mover was told the game was over, yet the move was stored.)
    @Test func aResignationWhileAMoveIsStoredComesAfterTheMove() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(30) }
        let paired = try await pairedGame(server)
        let (x, o) = (paired.clients[.x]!, paired.clients[.o]!)
        let game = try await server.server!.lobby.watchable(paired.game)
        let lock = try WriteLockHolder(path: server.database.path)
        x.send(#"{"type":"move","game":\#(paired.game),"move":"b6","id":1}"#)
        while await !game.isStoringMove { try await Task.sleep(for: .milliseconds(1)) }
        o.send(#"{"type":"resign","game":\#(paired.game),"id":2}"#)
        // Answered at once: the resignation is taken and waits for the move.
        #expect(try await o.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        lock.release()
        for (side, id) in [(Side.x, RequestID?.some(.integer(1))), (.o, nil)] {
            let reply = try await paired.clients[side]!.reply()
            guard case .moved(let moved) = reply.message else {
                throw TestClient.Failure(description: "expected moved, got \(reply)")
            }
            #expect(moved.ply == 1 && moved.move == "b6" && reply.id == id)
        }
        for side in Side.allCases {
            let reply = try await paired.clients[side]!.reply()
            guard case .end(let end) = reply.message else {
                throw TestClient.Failure(description: "expected end, got \(reply)")
            }
            #expect(end.outcome == Outcome(winner: .x, reason: .resignation))
            #expect(reply.id == (side == .o ? .integer(2) : nil))
        }
        await server.stop()
    }

    @Test func aRegistrationThatCannotBeStoredLeavesNoPlayer() async throws {
        let server = try await TestServer()
        try execute(
            "CREATE TRIGGER hold BEFORE INSERT ON token BEGIN SELECT RAISE(ABORT, 'held'); END", on: server)
        let client = try server.client()
        #expect(
            try await client.exchange(#"{"type":"register","name":"ann","password":"password1","id":1}"#)
                == #"{"code":"internal_error","id":1,"message":"the server failed; nothing changed","type":"error"}"#
        )
        #expect(
            try await client.exchange(#"{"type":"profile","name":"ann"}"#)
                == #"{"code":"no_such_player","message":"no player is called 'ann'","type":"error"}"#)
        try execute("DROP TRIGGER hold", on: server)
        #expect(try await register(client, "ann").count == 43)
        await server.stop()
    }

    /// A paired game whose result storage refuses (a trigger, until dropped), and o's
    /// resignation (request id "r") sent.
    private func resignationThatCannotBeStored() async throws -> (TestServer, PairedGame) {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        try execute(
            "CREATE TRIGGER hold BEFORE UPDATE OF result ON game BEGIN SELECT RAISE(ABORT, 'held'); END",
            on: server)
        paired.clients[.o]!.send(#"{"type":"resign","game":\#(paired.game),"id":"r"}"#)
        return (server, paired)
    }

    /// A result that cannot be stored for minutes is not given up while the server runs: after
    /// eight attempts the players hear that it is late, and once storing works again it is stored
    /// and announced. (It was once left for the next start, which brought the game back as one
    /// going on: a resignation, or a loss on time, undone.)
    @Test func aResultIsTriedUntilStoredHoweverLongItTakes() async throws {
        let (server, paired) = try await resignationThatCannotBeStored()
        /// Pings `side` (a player pings to stay within the idle timeout) and returns the lines
        /// that came before the pong.
        func lines(to side: Side) async throws -> [String] {
            let client = paired.clients[side]!
            client.send(#"{"type":"ping"}"#)
            var lines: [String] = []
            while case let line = try await client.line(), line != #"{"type":"pong"}"# { lines.append(line) }
            return lines
        }
        let late =
            #"{"code":"internal_error","message":"game \#(paired.game)'s result is not stored yet; it is tried again every minute","type":"error"}"#
        // Attempts after 1, 2, 4... 64 s; the players ping meanwhile (as they must within the
        // idle timeout) and hear nothing else. The eighth attempt fails too: both hear it is late.
        for wait in [1, 2, 4, 8, 16, 32, 64] {
            for side in Side.allCases { #expect(try await lines(to: side) == []) }
            try await server.clock.advanceWhenArmed(by: .seconds(wait))
        }
        for side in Side.allCases { #expect(try await paired.clients[side]!.line() == late) }
        // Storing works again: the next attempt, a minute on, stores and announces it.
        try execute("DROP TRIGGER hold", on: server)
        for side in Side.allCases { #expect(try await lines(to: side) == []) }
        try await server.clock.advanceWhenArmed(by: .seconds(64))
        for side in Side.allCases {
            let end = try await paired.clients[side]!.reply()
            guard case .end(let ended) = end.message else {
                throw TestClient.Failure(description: "expected end, got \(end)")
            }
            #expect(ended.outcome == .resignation(by: .o))
            #expect(end.id == (side == .o ? .string("r") : nil))
        }
        await server.stop()
    }

    @Test func aResultIsAnnouncedOnlyOnceStored() async throws {
        let (server, paired) = try await resignationThatCannotBeStored()
        // Nobody is told of an end that is not stored: the next line each gets is the pong.
        for side in Side.allCases {
            #expect(try await paired.clients[side]!.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        }
        #expect(
            try await paired.clients[.x]!.exchange(#"{"type":"profile","name":"\#(paired.names[.x]!)"}"#)
                .contains(#""recent":[]"#))
        // Once storing works again, the result is stored (tried again after a second) and
        // announced, with the request's id.
        try execute("DROP TRIGGER hold", on: server)
        try await server.clock.advanceWhenArmed(by: .seconds(1))
        let end = try await paired.clients[.o]!.reply()
        guard case .end(let mine) = end.message,
            case .end(let theirs) = try await paired.clients[.x]!.reply().message
        else { throw TestClient.Failure(description: "expected end") }
        #expect(
            end.id == .string("r") && mine.outcome == .resignation(by: .o) && theirs.outcome == mine.outcome)
        #expect(
            try await paired.clients[.x]!.exchange(#"{"type":"profile","name":"\#(paired.names[.x]!)"}"#)
                .contains(#""reason":"resign""#))
        await server.stop()
    }
}
