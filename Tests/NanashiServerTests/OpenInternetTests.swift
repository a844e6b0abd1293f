import Foundation
import GRDB
import Logging
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import NanashiTransport
import Synchronization
import Testing

@testable import NanashiServer

// The server on the open internet: what one client (or one address) can do to everyone else,
// sessions that replace each other, and games that never start or end early.

/// A flag that escaping closures on other threads can share.
private final class Flag: Sendable {
    private let state: Atomic<Bool>
    init(_ value: Bool) { state = Atomic(value) }
    var isSet: Bool { state.load(ordering: .relaxed) }
    func clear() { state.store(false, ordering: .relaxed) }
}

extension Thread {
    /// Runs blocking work on a new thread; the returned function waits for its result.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) -> @Sendable () async -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        return {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    done.wait()
                    done.signal()
                    continuation.resume(returning: result.withLock { $0! })
                }
            }
        }
    }
}

/// `name`'s profile once it contains `text`: for what the server does on its own time, which no
/// client is told of. Each look is a new connection, so that no message budget runs dry.
func profile(of name: String, on server: TestServer, once text: String) async throws -> String {
    var profile = ""
    for _ in 0..<1000 where !profile.contains(text) {
        let client = try server.client()
        profile = try await client.exchange(#"{"type":"profile","name":"\#(name)"}"#)
        client.close()
        if !profile.contains(text) { try await Task.sleep(for: .milliseconds(10)) }
    }
    return profile
}

/// Connections to `server` from the addresses `prefix.1` to `prefix.addresses` in turn, each
/// sending `line(n)` (n counts from 0) and resetting, until `flooding` is cleared or `most` are
/// sent; waiting for it gives how many were. On a thread of its own: its blocking calls must not
/// take the concurrency pool's threads.
private func flood(
    _ server: TestServer, from prefix: String, addresses: Int, most: Int, while flooding: Flag,
    _ line: @escaping @Sendable (Int) -> String
) -> () async -> Int {
    let port = server.port
    return Thread.run {
        var sent = 0
        while flooding.isSet && sent < most {
            guard let client = try? TestClient(port: port, from: "\(prefix).\(1 + sent % addresses)") else {
                continue
            }
            client.send(line(sent))
            client.reset()
            sent += 1
        }
        return sent
    }
}

/// The next message of the given type, skipping others.
private func next(_ type: String, from client: TestClient) async throws -> Reply {
    while true {
        let reply = try await client.reply()
        if reply.message.type == type { return reply }
    }
}

@Suite struct AdmissionTests {
    @Test func aFullHashingPoolRefusesAtOnceAndDropsWorkForGoneClients() async throws {
        let pool = HashingPool(concurrency: 1, queueLimit: 1)
        let release = DispatchSemaphore(value: 0)
        let running = Task {
            try await pool.run(whileWanted: { true }) {
                release.wait()
                return 1
            }
        }
        // Wait until the first job holds the one thread.
        while pool.waitingCount == 0 {
            let wanted = Flag(true)
            let queued = Task { try await pool.run(whileWanted: { wanted.isSet }) { 2 } }
            try await Task.sleep(for: .milliseconds(20))
            guard pool.waitingCount == 1 else {
                _ = try? await queued.value
                continue
            }
            // The queue is full: the next request is refused at once.
            await #expect(
                throws: ProtocolError(
                    .busy, "the server is busy checking passwords; try again in a few seconds")
            ) {
                try await pool.run(whileWanted: { true }, { 3 })
            }
            // The queued client goes away: its work is dropped, and its place goes to a new one.
            wanted.clear()
            let third = Task { try await pool.run(whileWanted: { true }) { 4 } }
            await #expect(throws: ProtocolError(.busy, "the request was dropped")) { try await queued.value }
            release.signal()
            #expect(try await running.value == 1)
            #expect(try await third.value == 4)
            #expect(pool.waitingCount == 0)
            return
        }
    }

    @Test func aLoginFloodLeavesRoomForARealPlayer() async throws {
        // A real scrypt (4 MiB a hash: cheaper than OWASP's, as the other tests run alongside)
        // and two hashes at once, as on a small server.
        let server = try await TestServer {
            $0.passwordCost = ScryptCost(log2N: 12, r: 8, p: 1)
            $0.concurrentHashes = 2
            $0.queuedHashes = 4
        }
        try await register(server.client(from: "127.0.0.2"), "ann")
        let flooding = Flag(true)
        // Hundreds of connections from 200 addresses, each sending `login` and resetting.
        let flood = flood(server, from: "127.0.1", addresses: 200, most: 400, while: flooding) {
            #"{"type":"login","name":"user\#($0)","password":"password1"}"#
        }
        try await Task.sleep(for: .milliseconds(200))
        // Three logins one after the other, each on a new connection: all must get in, each
        // within the client's read timeout. (Without admission control a login waits behind
        // every hash the flood asked for: minutes. How long they take is a benchmark's business.)
        for _ in 0..<3 {
            let player = try server.client(from: "127.0.0.3")
            var reply = ""
            // A real client retries `busy` after a moment.
            while !reply.contains("welcome") {
                reply = try await player.exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
                #expect(reply.contains("welcome") || reply.contains(#""code":"busy""#), "\(reply)")
                if !reply.contains("welcome") { try await Task.sleep(for: .milliseconds(50)) }
            }
        }
        flooding.clear()
        let sent = await flood()
        #expect(sent >= 100, "the flood sent only \(sent) logins")
        await server.stop()
    }

    @Test func loginsAndRegistrationsAreCountedPerAddress() async throws {
        let server = try await TestServer {
            $0.loginsPerMinute = 3
            $0.registrationsPerHour = 2
        }
        let first = try server.client(from: "127.0.0.1")
        try await register(first, "ann")
        try await register(first, "bob")
        #expect(
            try await first.exchange(#"{"type":"register","name":"cyd","password":"password1"}"#)
                == #"{"code":"rate_limited","message":"too many registrations from your address (at most 2 an hour)","type":"error"}"#
        )
        let second = try server.client(from: "127.0.0.2")
        try await register(second, "cyd")
        for _ in 0..<3 {
            #expect(try await logsIn(first, as: "ann"))
        }
        #expect(
            try await first.exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
                == #"{"code":"rate_limited","message":"too many logins from your address (at most 3 a minute)","type":"error"}"#
        )
        #expect(try await logsIn(second, as: "ann"))
        await server.stop()
    }
}

@Suite struct ManyAddressFloodTests {
    @Test func aLoginFloodFromAHundredAddressesLeavesARealPlayerIn() async throws {
        // A real scrypt (16 MiB a hash) and two hashes at once, as on a small server: the flood
        // asks for far more hashes than it can have.
        let server = try await TestServer {
            $0.passwordCost = ScryptCost(log2N: 14, r: 8, p: 1)
            $0.concurrentHashes = 2
            $0.queuedHashes = 4
            $0.decoyHashesPerSecond = 1
            $0.loginsPerMinute = 10
            $0.failedLoginsPerAddressBeforeThrottle = 20
        }
        let token = try await register(server.client(from: "127.0.0.2"), "ann")
        try await register(server.client(from: "127.0.0.2"), "bob")
        let flooding = Flag(true)
        // 100 addresses, each sending `login` for names that do not exist and wrong passwords
        // for one that does, and resetting.
        let flood = flood(server, from: "127.0.2", addresses: 100, most: 5000, while: flooding) {
            #"{"type":"login","name":"\#($0 % 3 == 0 ? "bob" : "nobody\($0)")","password":"wrong-password"}"#
        }
        try await Task.sleep(for: .milliseconds(500))
        // Ten real logins, each from a fresh address on a new connection, retrying `busy` as a
        // real client does, at most 60 times (without admission control the flood keeps the
        // hash queue full and every try is `busy`); and a player with a token is never told
        // `busy`. How long a login takes is measured by the load test, not here.
        var inTime = 0
        for attempt in 0..<10 {
            let player = try server.client(from: "127.0.3.\(1 + attempt)")
            var reply = ""
            var tries = 0
            while !reply.contains("welcome") && tries < 60 {
                tries += 1
                reply = try await player.exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
                #expect(reply.contains("welcome") || reply.contains(#""code":"busy""#), "\(reply)")
                if !reply.contains("welcome") { try await Task.sleep(for: .milliseconds(50)) }
            }
            if reply.contains("welcome") { inTime += 1 }
            #expect(
                try await server.client(from: "127.0.4.\(1 + attempt)").exchange(
                    #"{"type":"auth","token":"\#(token)"}"#
                ).contains("welcome"))
        }
        flooding.clear()
        let sent = await flood()
        #expect(sent >= 500, "the flood sent only \(sent) logins")
        #expect(inTime >= 9, "only \(inTime) of 10 real logins got in within 60 tries")
        await server.stop()
    }
}

@Suite struct ConnectionCapTests {
    @Test func theCapPerAddressLeavesOtherAddressesServed() async throws {
        let server = try await TestServer { $0.maximumConnectionsPerAddress = 3 }
        var held = try (0..<3).map { _ in try server.client(from: "127.0.0.1") }
        for client in held { #expect(try await client.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#) }
        let refused = try server.client(from: "127.0.0.1")
        #expect(
            try await refused.linesUntilClosed() == [
                #"{"code":"rate_limited","message":"too many connections from your address (at most 3)","type":"error"}"#
            ])
        let other = try server.client(from: "127.0.0.2")
        #expect(try await other.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        // Once one closes, the address has room again.
        held.removeLast().close()
        var served = false
        for _ in 0..<100 where !served {
            try await Task.sleep(for: .milliseconds(20))
            let again = try server.client(from: "127.0.0.1")
            served = (try? await again.exchange(#"{"type":"ping"}"#)) == #"{"type":"pong"}"#
        }
        #expect(served)
        await server.stop()
    }

    /// An address opens new connections at a rate (a token bucket): past its burst the next is
    /// closed at once without a word (with TLS, before any handshake), whatever it would have
    /// been; others are served, and the budget comes back with time.
    @Test func newConnectionsFromOneAddressHaveARate() async throws {
        let server = try await TestServer {
            $0.connectionBurstPerAddress = 3
            $0.connectionRatePerAddress = 1
        }
        let held = try (0..<3).map { _ in try server.client(from: "127.0.0.6") }
        for client in held { #expect(try await client.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#) }
        #expect(try await server.client(from: "127.0.0.6").linesUntilClosed() == [])
        let other = try server.client(from: "127.0.0.7")
        #expect(try await other.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        server.clock.advance(by: .seconds(1))
        let later = try server.client(from: "127.0.0.6")
        #expect(try await later.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }

    @Test func theOverallCapAnswersBusy() async throws {
        let server = try await TestServer { $0.maximumConnections = 2 }
        let held = try [server.client(from: "127.0.0.1"), server.client(from: "127.0.0.2")]
        for client in held { #expect(try await client.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#) }
        #expect(
            try await server.client(from: "127.0.0.3").linesUntilClosed() == [
                #"{"code":"busy","message":"the server is full; try again in a minute","type":"error"}"#
            ])
        await server.stop()
    }

    @Test func aConnectionThatDoesNotLogInIsClosedEvenIfItPings() async throws {
        #expect(ServerSettings().loginTimeout == .seconds(30))
        let server = try await TestServer()
        let player = try server.client()
        try await register(player, "ann")
        let stranger = try server.client()
        // Both ping every 5 s of the server's clock, as often as it looks (a quarter of the 30 s).
        for _ in 0..<5 {
            #expect(try await stranger.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
            #expect(try await player.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
            try await server.clock.advanceWhenArmed(by: .seconds(5))
        }
        #expect(try await stranger.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        try await server.clock.advanceWhenArmed(by: .seconds(5))
        #expect(
            try await stranger.linesUntilClosed() == [
                #"{"code":"idle_timeout","message":"not logged in after 30 s; closing","type":"error"}"#
            ])
        #expect(try await player.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        await server.stop()
    }
}

@Suite struct ThrottleTests {
    @Test func twentyParallelWrongLoginsGetAtMostFiveAnswers() async throws {
        let server = try await TestServer { $0.failedLoginRefill = .seconds(3600) }
        try await register(server.client(), "ann")
        let clients = try (0..<20).map { _ in try server.client() }
        for client in clients { client.send(#"{"type":"login","name":"ann","password":"wrong-one"}"#) }
        var codes: [String: Int] = [:]
        for client in clients {
            guard case .error(let error) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected an error")
            }
            codes[error.code.rawValue, default: 0] += 1
        }
        #expect(codes == ["bad_credentials": 5, "rate_limited": 15])
        await server.stop()
    }

    @Test func aStrangerCannotHoldAPlayerOut() async throws {
        let server = try await TestServer { $0.failedLoginRefill = .seconds(3600) }
        let token = try await register(server.client(from: "127.0.0.2"), "ann")
        let stranger = try server.client(from: "127.0.0.1")
        for _ in 0..<5 {
            #expect(
                try await stranger.exchange(#"{"type":"login","name":"ann","password":"wrong-one"}"#)
                    .contains(
                        "bad_credentials"))
        }
        #expect(
            try await stranger.exchange(#"{"type":"login","name":"ann","password":"password1"}"#)
                == #"{"code":"rate_limited","message":"too many failed logins for this name; try again later","type":"error"}"#
        )
        // The player, from their own address, logs in; a token works from anywhere.
        #expect(try await logsIn(server.client(from: "127.0.0.2"), as: "ann"))
        #expect(try await stranger.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        await server.stop()
    }

    @Test func onePasswordSprayedOverManyNamesIsSlowed() async throws {
        let server = try await TestServer {
            $0.failedLoginRefill = .seconds(3600)
            $0.failedLoginsPerAddressBeforeThrottle = 3
        }
        let sprayer = try server.client(from: "127.0.0.1")
        for name in ["ann", "bob", "cyd"] {
            #expect(
                try await sprayer.exchange(#"{"type":"login","name":"\#(name)","password":"password1"}"#)
                    .contains("bad_credentials"))
        }
        #expect(
            try await sprayer.exchange(#"{"type":"login","name":"dan","password":"password1"}"#)
                == #"{"code":"rate_limited","message":"too many failed logins from your address; try again later","type":"error"}"#
        )
        #expect(
            try await server.client(from: "127.0.0.2").exchange(
                #"{"type":"login","name":"dan","password":"password1"}"#
            ).contains("bad_credentials"))
        await server.stop()
    }
}

@Suite struct FailureDecayTests {
    @Test func failedLoginsAreForgottenWithTime() async throws {
        #expect(ServerSettings().failedLoginRefill == .seconds(180))
        let server = try await TestServer {
            $0.failedLoginsPerAddressBeforeThrottle = 3
            // The guesser never logs in, and the clock moves by minutes.
            $0.loginTimeout = .seconds(86_400)
            $0.idleTimeout = .seconds(86_400)
        }
        let clock = server.clock
        let refused =
            #"{"code":"rate_limited","message":"too many failed logins from your address; try again later","type":"error"}"#
        let wrong = #"{"code":"bad_credentials","message":"wrong name or password","type":"error"}"#
        let guesser = try server.client(from: "127.0.0.1")
        func attempt(_ name: String) async throws -> String {
            try await guesser.exchange(#"{"type":"login","name":"\#(name)","password":"password1"}"#)
        }
        for name in ["ann", "bob", "cyd"] { #expect(try await attempt(name) == wrong) }
        #expect(try await attempt("dan") == refused)
        // One failure is forgotten every 180 s: one more try, not a lockout that grows.
        clock.advance(by: .seconds(180))
        #expect(try await attempt("dan") == wrong)
        #expect(try await attempt("eve") == refused)
        clock.advance(by: .seconds(3 * 180))
        for name in ["fay", "gus", "hal"] { #expect(try await attempt(name) == wrong) }
        #expect(try await attempt("ivy") == refused)
        await server.stop()
    }

    @Test func namesThatCannotExistAreNotCountedOrKept() async throws {
        let server = try await TestServer { $0.failedLoginsPerAddressBeforeThrottle = 3 }
        let client = try server.client()
        let wrong = #"{"code":"bad_credentials","message":"wrong name or password","type":"error"}"#
        for name in [String(repeating: "n", count: 4000), "<script>", "a b", "x"] {
            #expect(
                try await client.exchange(#"{"type":"login","name":"\#(name)","password":"password1"}"#)
                    == wrong)
        }
        // None of those counted: the address still has its three failures.
        for name in ["ann", "bob", "cyd"] {
            #expect(
                try await client.exchange(#"{"type":"login","name":"\#(name)","password":"password1"}"#)
                    == wrong)
        }
        #expect(
            try await client.exchange(#"{"type":"login","name":"dan","password":"password1"}"#).contains(
                "rate_limited"))
        await server.stop()
    }
}

@Suite struct SessionTests {
    @Test func aNewLoginSupersedesTheOlderConnection() async throws {
        let server = try await TestServer()
        let first = try server.client()
        let token = try await register(first, "ann")
        let second = try server.client()
        #expect(try await logsIn(second, as: "ann"))
        #expect(try await first.linesUntilClosed() == [#"{"type":"superseded"}"#])
        let third = try server.client()
        #expect(try await third.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        #expect(try await second.linesUntilClosed() == [#"{"type":"superseded"}"#])
        #expect(try await third.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        await server.stop()
    }

    @Test func loggingOutEndsTheSessionEverywhere() async throws {
        let server = try await TestServer()
        let first = try server.client()
        let token = try await register(first, "ann")
        let second = try server.client()
        #expect(try await second.exchange(#"{"type":"auth","token":"\#(token)"}"#).contains("welcome"))
        #expect(try await first.linesUntilClosed() == [#"{"type":"superseded"}"#])
        #expect(try await second.exchange(#"{"type":"logout","id":1}"#) == #"{"id":1,"type":"bye"}"#)
        #expect(try await second.exchange(#"{"type":"seek"}"#).contains("not_authenticated"))
        #expect(
            try await server.client().exchange(#"{"type":"auth","token":"\#(token)"}"#).contains(
                "bad_credentials"))
        await server.stop()
    }
}

@Suite struct GameStartAndEndTests {
    @Test(arguments: [0, 1])
    func aGameWithoutBothFirstMovesIsAbortedUnrated(movesPlayed: Int) async throws {
        #expect(ServerSettings().firstMoveLimit == .seconds(30))
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        if movesPlayed == 1 {
            paired.clients[.x]!.send(#"{"type":"move","game":\#(paired.game),"move":"b6"}"#)
            for side in Side.allCases { _ = try await next("moved", from: paired.clients[side]!) }
        }
        // The limit counts from the start: a moment before it, the game goes on.
        server.clock.advance(by: .milliseconds(29_999))
        #expect(try await paired.clients[.o]!.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        try await server.clock.advanceWhenArmed(by: .milliseconds(1))
        for side in Side.allCases {
            guard case .end(let end) = try await next("end", from: paired.clients[side]!).message else {
                throw TestClient.Failure(description: "expected end")
            }
            #expect(
                end
                    == GameEnd(
                        game: paired.game, outcome: Outcome(winner: nil, reason: .aborted),
                        rating: .init(before: 1500, after: 1500))
            )
        }
        for side in Side.allCases {
            let client = paired.clients[side]!
            #expect(
                try await client.exchange(#"{"type":"profile","name":"\#(paired.names[side]!)"}"#).contains(
                    #""games":0"#))
            #expect(try await client.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        }
        await server.stop()
    }

    @Test func aResignationBeforeTwoMovesEachIsUnrated() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        // Three moves: o has made only one.
        try await playGreedily(paired, plies: 3)
        paired.clients[.o]!.send(#"{"type":"resign","game":\#(paired.game)}"#)
        for side in Side.allCases {
            guard case .end(let end) = try await next("end", from: paired.clients[side]!).message else {
                throw TestClient.Failure(description: "expected end")
            }
            #expect(end.outcome == Outcome(winner: .x, reason: .resignation))
            #expect(end.rating == RatingChange(before: 1500, after: 1500))
        }
        let profile = try await paired.clients[.x]!.exchange(
            #"{"type":"profile","name":"\#(paired.names[.x]!)"}"#)
        #expect(profile.contains(#""games":0"#) && profile.contains(#""rating_change":0"#))
        await server.stop()
    }

    @Test func afterARestartEachSideIsJudgedByItsOwnGracePeriod() async throws {
        let server = try await TestServer()
        let paired = try await pairedGame(server)
        for (side, move) in [(Side.x, "b6"), (.o, "f6")] {
            paired.clients[side]!.send(#"{"type":"move","game":\#(paired.game),"move":"\#(move)"}"#)
            for viewer in Side.allCases { _ = try await next("moved", from: paired.clients[viewer]!) }
        }
        await server.stop()
        // x, to move, comes back and leaves again; o never comes back. o's grace period, which
        // began at the restart, ends first: o loses, not the side to move.
        let restarted = try await TestServer(database: server.database)
        let x = try restarted.client()
        #expect(
            try await x.exchange(#"{"type":"auth","token":"\#(paired.tokens[.x]!)"}"#).contains("welcome"))
        _ = try await next("game", from: x)
        restarted.clock.advance(by: .seconds(15))
        x.close()
        // x's grace period runs from now; o's ends 15 s from now, long before.
        try await restarted.clock.waitForTimer(until: restarted.clock.now + .seconds(30))
        restarted.clock.advance(by: .seconds(15))
        let profile = try await profile(of: paired.names[.x]!, on: restarted, once: #""reason":"abandon""#)
        #expect(profile.contains(#""outcome":{"reason":"abandon","winner":"x"}"#), "\(profile)")
        await restarted.stop()
    }

    @Test func aPairingThatCannotBeStoredLeavesBothSeeking() async throws {
        let server = try await TestServer()
        let queue = try DatabaseQueue(path: server.database.path)
        try await queue.write { db in
            try db.execute(
                sql: "CREATE TRIGGER hold BEFORE INSERT ON game BEGIN SELECT RAISE(ABORT, 'held'); END")
        }
        let ann = try server.client()
        let bob = try server.client()
        try await register(ann, "ann")
        try await register(bob, "bob")
        for client in [ann, bob] {
            #expect(try await client.exchange(#"{"type":"seek"}"#) == #"{"type":"seeking"}"#)
        }
        for client in [ann, bob] {
            #expect(
                try await client.line()
                    == #"{"code":"internal_error","message":"a game could not be started; you are still seeking","type":"error"}"#
            )
        }
        try await queue.write { db in try db.execute(sql: "DROP TRIGGER hold") }
        // The next pairing pass, a second on, pairs them.
        try await server.clock.advanceWhenArmed(by: .seconds(1))
        for client in [ann, bob] {
            #expect(try await next("start", from: client).message.type == "start")
        }
        await server.stop()
    }

    @Test func theMoversClockStopsWhenTheMoveIsRead() async throws {
        let database = try TemporaryDatabase()
        let storage = try SQLiteStorage(path: database.path)
        let ann = try await storage.createPlayer(name: "ann", passwordHash: "-", now: Date(), token: nil)
        let bob = try await storage.createPlayer(name: "bob", passwordHash: "-", now: Date(), token: nil)
        let control = TimeControl(initial: 60, increment: 2)
        let id = try await storage.createGame(xID: ann.id!, oID: bob.id!, control: control, now: Date())
        let lines = Mutex<[String]>([])
        let outbox = Outbox(id: 1) { event in
            if case .line(let line) = event { lines.withLock { $0.append(line) } }
        }
        var settings = ServerSettings()
        let clock = TestClock()
        settings.clock = clock
        let game = Game(
            id: id, control: control,
            players: [
                .x: .init(id: ann.id!, name: "ann", rating: 1500),
                .o: .init(id: bob.id!, name: "bob", rating: 1500),
            ],
            outboxes: [.x: outbox], storage: storage, settings: settings,
            logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() }
        ) { _ in }
        await game.begin()
        clock.advance(by: .milliseconds(1_234))
        let read = clock.now
        // Handled (as if stored) 300 ms after it was read: x is charged only up to the read.
        clock.advance(by: .milliseconds(300))
        try await game.play("b6", by: .x, requestID: nil, readAt: read)
        let moved = try Wire.reply(fromLine: Array(lines.withLock { $0.last! }.utf8))
        guard case .moved(let move) = moved.message else { throw TestClient.Failure(description: "\(moved)") }
        #expect(move.clock == Clocks(x: 60_000 - 1_234 + 2_000, o: 60_000))
        await game.halt()
    }
}

@Suite struct StorageOffTheLoopsTests {
    @Test func writesThatWaitForTheDatabaseHoldUpNoOneElseNorAnyRead() async throws {
        // Writes wait for the lock as long as this test holds it, however slowly the machine runs.
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(600) }
        try await register(server.client(), "ann")
        // Another writer holds SQLite's write lock, as a long write (or a slow disk) would.
        let lock = try WriteLockHolder(path: server.database.path)
        // More waiting writes than the machine has threads for tasks.
        let writers = try (0..<(2 * ProcessInfo.processInfo.activeProcessorCount + 2)).map { _ in
            try server.client()
        }
        for (index, writer) in writers.enumerated() {
            writer.send(#"{"type":"register","name":"player\#(index)","password":"password1"}"#)
        }
        try await Task.sleep(for: .milliseconds(200))
        // Everyone else is served while they wait...
        #expect(try await server.client().exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        // ...reads too: they never queue behind writes waiting for the lock (there are more
        // writes than writing threads), so they are answered while every write still waits.
        #expect(
            try await server.client().exchange(#"{"type":"profile","name":"ann"}"#)
                .contains(#""name":"ann","rank":null"#))
        #expect(
            try await server.client().exchange(#"{"type":"leaderboard"}"#)
                == #"{"entries":[],"total":0,"type":"leaderboard"}"#)
        for writer in writers { #expect(!writer.hasInput(), "a write was answered while the lock was held") }
        lock.release()
        // ...and once the lock is free, every write goes through.
        for writer in writers { #expect(try await writer.line().contains(#""type":"welcome""#)) }
        await server.stop()
    }
}
