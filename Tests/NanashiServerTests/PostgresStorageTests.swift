import Foundation
import NanashiCore
import NanashiRuntime
import NanashiServerTestSupport
import NanashiTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import NanashiServer
@testable import NanashiStorage

// What only PostgreSQL's storage does: several servers on one database.

@Suite struct PostgresStorageTests {
    /// Two games of ann end at the same moment on two servers: the second is rated from the
    /// first's result, not from the rating both read before.
    ///
    /// The first rating holds its thread until the second waits for the lock: `.blocking`, and
    /// the two run as child tasks of the test (on its lanes), so that the hold is not one of Swift
    /// concurrency's threads, which every in-process server of the run shares.
    @Test(.blocking) func twoGamesOfOnePlayerEndingTogetherOnTwoServersLoseNeitherUpdate() async throws {
        let url = try await postgresDatabase()
        let (first, second, watcher) = (
            try await PostgresStorage.open(url), try await PostgresStorage.open(url),
            try await PostgresStorage.open(url)
        )
        let (ann, bob) = try await first.createPlayers("ann", "bob")
        let cy = try await first.createPlayer(name: "cy", passwordHash: "h", now: Date(), token: nil)
        let game1 = try await first.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: Date())
        let game2 = try await second.createGame(xID: ann.id!, oID: cy.id!, control: .standard, now: Date())

        // The first server rates game 1 and, before it commits, holds on until the second server
        // is waiting to rate game 2.
        let inside = Flag()
        let heldOnALane = Flag()
        let release = DispatchSemaphore(value: 0)
        async let firstFinish = first.finishGame(
            id: game1, outcome: Outcome(winner: .x, reason: .resignation), now: Date()
        ) {
            x, o in
            if BlockingTrait.isOnALane { heldOnALane.set() }
            inside.set()
            _ = release.wait(timeout: .now() + 60)
            return xWins(x, o)
        }
        while !inside.isSet { try await Task.sleep(for: .milliseconds(5)) }
        let secondDone = Flag()
        async let secondFinish = {
            defer { secondDone.set() }
            return try await second.finishGame(
                id: game2, outcome: Outcome(winner: .x, reason: .resignation), now: Date(), rate: xWins)
        }()
        // Until the second server's transaction waits for a lock (or, wrongly, finishes).
        var waited = false
        for _ in 0..<6000 where !waited && !secondDone.isSet {
            waited =
                try await watcher.rows(
                    """
                    SELECT COUNT(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                    """
                ).first?.decode(Int.self) == 1
            if !waited { try await Task.sleep(for: .milliseconds(5)) }
        }
        release.signal()
        let one = try #require(try await firstFinish)
        let two = try #require(try await secondFinish)
        #expect(waited, "the second server rated game 2 without waiting for game 1's rating")
        #expect(heldOnALane.isSet, "the first rating held one of Swift concurrency's threads")
        #expect(two.x.before == one.x.after)
        let stored = try #require(try await watcher.player(id: ann.id!))
        #expect(stored.games == 2 && stored.wins == 2 && stored.glicko == two.x.after)
        #expect(try await watcher.leaderboard(limit: 10, offset: 0).total == 3)
        for storage in [first, second, watcher] { await storage.close() }
    }

    /// Many games of one player end at once over two servers: every one is counted, and each
    /// rating change starts where the one before it ended.
    @Test func aBurstOfFinishesOverTwoServersIsRatedOneAfterAnother() async throws {
        let url = try await postgresDatabase()
        let servers = [try await PostgresStorage.open(url), try await PostgresStorage.open(url)]
        let ann = try await servers[0].createPlayer(name: "ann", passwordHash: "h", now: Date(), token: nil)
        var games: [Int64] = []
        for number in 0..<16 {
            let opponent = try await servers[0].createPlayer(
                name: "op\(number)", passwordHash: "h", now: Date(), token: nil)
            games.append(
                try await servers[0].createGame(
                    xID: ann.id!, oID: opponent.id!, control: .standard, now: Date()))
        }
        let results = try await withThrowingTaskGroup(of: RatedResult?.self) { group in
            for (index, game) in games.enumerated() {
                group.addTask {
                    try await servers[index % 2].finishGame(
                        id: game, outcome: Outcome(winner: .x, reason: .resignation), now: Date(), rate: xWins
                    )
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }.compactMap { $0 }
        #expect(results.count == 16)
        // One chain from the initial rating: each game's "before" is another's "after".
        let befores = Set(results.map(\.x.before.rating))
        let afters = Set(results.map(\.x.after.rating))
        #expect(befores.count == 16 && befores.subtracting(afters) == [Rating.initial.rating])
        let stored = try #require(try await servers[1].player(id: ann.id!))
        #expect(stored.games == 16 && stored.wins == 16)
        #expect(afters.subtracting(befores) == [stored.rating])
        for storage in servers { await storage.close() }
    }

    /// Servers starting together on a new database migrate it once; one built for an older
    /// schema than the database's refuses to start.
    @Test func theSchemaIsMigratedOnceAndANewerOneRefused() async throws {
        let url = try await postgresDatabase()
        async let a = PostgresStorage.open(url)
        async let b = PostgresStorage.open(url)
        let (first, second) = try await (a, b)
        let versions = try await first.rows("SELECT version FROM schema_version ORDER BY version").map {
            try $0.decode(Int.self)
        }
        #expect(versions == Array(1...PostgresSchema.version))
        _ = try await first.rows(
            "INSERT INTO schema_version (version, name) VALUES (\(PostgresSchema.version + 1), 'from a newer server')"
        )
        await #expect(
            throws: StorageError.newerSchema(
                database: PostgresSchema.version + 1, node: PostgresSchema.version)
        ) {
            try await PostgresStorage.open(url)
        }
        for storage in [first, second] { await storage.close() }
    }

    @Test func aRefusedLoginAndAnUnreachableServerSayWhy() async throws {
        let url = try await postgresDatabase()
        let name = String(url.split(separator: "/").last!)
        let wrong = try await TestPostgres.wrongPassword(database: name)
        await #expect {
            try await PostgresStorage.open(wrong)
        } throws: { error in
            "\(error)" == "PostgreSQL refused: password authentication failed for user \"postgres\""
        }
        await #expect {
            try await PostgresStorage.open("postgres://postgres:secret@127.0.0.1:1/nanashi")
        } throws: { error in
            "\(error)".hasPrefix("PostgreSQL cannot be reached: ") && "\(error)".contains("refused")
        }
    }
}

/// Set once, read from anywhere.
private final class Flag: Sendable {
    private let value = Atomic(false)

    func set() { value.store(true, ordering: .sequentiallyConsistent) }

    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

@Suite struct DatabaseAddressTests {
    @Test func aPathIsSQLiteAndAURLIsPostgreSQL() throws {
        #expect(try DatabaseAddress(parsing: "nanashi.sqlite") == .sqlite(path: "nanashi.sqlite"))
        #expect(try DatabaseAddress(parsing: "/var/lib/n.db") == .sqlite(path: "/var/lib/n.db"))
        #expect(
            try DatabaseAddress(parsing: "postgres://ann:s%40cret@db.example:6543/games?sslmode=require")
                == .postgres(
                    PostgresAddress(
                        user: "ann", password: "s@cret", host: "db.example", port: 6543, database: "games",
                        requiresTLS: true)))
        let plain = try DatabaseAddress(parsing: "postgresql://ann@127.0.0.1/games")
        #expect(
            plain
                == .postgres(
                    PostgresAddress(
                        user: "ann", password: nil, host: "127.0.0.1", port: 5432, database: "games")))
        // Never the password in what is logged.
        #expect(
            "\(try DatabaseAddress(parsing: "postgres://ann:hunter2@h/g"))" == "postgres://ann@h:5432/g")
    }

    @Test(arguments: [
        ("", "the database path is empty"),
        (
            "mysql://a@b/c",
            "'mysql://' is not a database this server speaks: give a file path (SQLite) or a postgres:// URL"
        ),
        (
            "postgres://h/g",
            "bad PostgreSQL URL (no user): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@/g",
            "bad PostgreSQL URL (no host): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@h",
            "bad PostgreSQL URL (no database name, or more than one): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@h/g/x",
            "bad PostgreSQL URL (no database name, or more than one): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@h:0/g",
            "bad PostgreSQL URL (port 0 is out of range): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@h/g?sslmode=verify-full",
            "bad PostgreSQL URL (sslmode 'verify-full' is not supported; use require or disable): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@h/g?pool=3",
            "bad PostgreSQL URL (unknown parameter 'pool'): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
        (
            "postgres://ann@h:port/g",
            "bad PostgreSQL URL (not a URL): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB"
        ),
    ])
    func aMalformedAddressSaysWhatIsWrong(text: String, message: String) {
        #expect(throws: DatabaseAddressError(message)) { try DatabaseAddress(parsing: text) }
    }
}

@Suite struct SharedLoginGuessTests {
    /// The failed-login bucket of one (address, name) is one for all servers: taken on either,
    /// given back, refilled with time, cleared by a success.
    @Test func guessesAtOneNameCountOnEveryServer() async throws {
        let url = try await postgresDatabase()
        let (a, b) = (try await PostgresStorage.open(url), try await PostgresStorage.open(url))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func take(_ storage: PostgresStorage, at time: Date = now, from address: String = "10.0.0.1")
            async throws
            -> Bool
        {
            try await storage.takeGuess(
                address: address, name: "Ann", capacity: 3, refill: .seconds(60), now: time)
        }
        var taken: [Bool] = []
        for storage in [a, b, a, b, a] { taken.append(try await take(storage)) }
        #expect(taken == [true, true, true, false, false])
        #expect(try await take(b, from: "10.0.0.2"))
        try await b.giveBackGuess(address: "10.0.0.1", name: "ANN", capacity: 3)
        taken = [try await take(a), try await take(b)]
        #expect(taken == [true, false])
        // A token comes back a minute after the last attempt.
        taken = [
            try await take(a, at: now.addingTimeInterval(59)),
            try await take(b, at: now.addingTimeInterval(61)),
        ]
        #expect(taken == [false, true])
        try await a.clearGuesses(address: "10.0.0.1", name: "ann")
        taken = [
            try await take(b, at: now.addingTimeInterval(61)),
            try await take(a, at: now.addingTimeInterval(61)),
        ]
        #expect(taken == [true, true])
        for storage in [a, b] { await storage.close() }
    }
}

@Suite struct SharedPairingTests {
    /// A pass locks a bounded batch: half of it its node's oldest seeks, then as many of the
    /// other nodes' oldest; it pairs only pairs with a seeker of its own, and leaves the rest
    /// of the pool to later passes.
    @Test func aPairingPassTakesABatchOfItsOwnOldestSeeksThenOthers() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let now = Date()
        let (a, b) = (try await storage.joinAsNode(now: now), try await storage.joinAsNode(now: now))
        // Seekers 0 to 11, one second apart; the even ones on node a, the odd ones on b.
        var seekers: [Int64] = []
        for index in 0..<12 {
            let player = try await storage.createPlayer(
                name: "seeker\(index)", passwordHash: "h", now: now, token: nil)
            seekers.append(player.id!)
            try await storage.addSeek(
                SharedSeek(
                    playerID: player.id!, node: index % 2 == 0 ? a : b, rating: 1500, colourBalance: 0,
                    control: .standard, since: now + Double(index)))
        }
        let seen = Mutex<[Int64]>([])
        let pass = try await storage.pairSeeks(node: a, aliveAfter: now - 10, now: now, limit: 4) { seeks in
            seen.withLock { $0 = seeks.map(\.playerID) }
            return Lobby.pick(seeks, node: a, now: now, gap: 100, widening: 25)
        }
        // Seekers 0 and 2 (a's two oldest), 1 and 3 (b's), oldest first; paired in that order.
        #expect(seen.withLock { $0 } == [0, 1, 2, 3].map { seekers[$0] })
        #expect(pass.full && !pass.skipped)
        #expect(
            pass.games.map { Set([$0.x.id!, $0.o.id!]) }
                == [[0, 1], [2, 3]].map { Set($0.map { seekers[$0] }) })
        let onA = Set([seekers[0], seekers[2]])
        #expect(
            pass.games.allSatisfy { game in
                game.nodes == [.x: onA.contains(game.x.id!) ? a : b, .o: onA.contains(game.o.id!) ? a : b]
            })
        #expect(try await storage.rows("SELECT COUNT(*) FROM seek").first?.decode(Int.self) == 8)

        // Node b's pass with a batch of 8 finds its seekers 5, 7, 9 and 11, and a's 4, 6, 8, 10;
        // of a's it pairs only with its own: 4-5, 6-7, 8-9, 10-11.
        let second = try await storage.pairSeeks(node: b, aliveAfter: now - 10, now: now, limit: 8) { seeks in
            Lobby.pick(seeks, node: b, now: now, gap: 100, widening: 25)
        }
        #expect(second.full && second.games.count == 4)
        #expect(try await storage.rows("SELECT COUNT(*) FROM seek").first?.decode(Int.self) == 0)
        await storage.close()
    }

    /// Of another node's seeks in a batch, a pass pairs none with each other: the oldest of
    /// them meets this node's seeker, and the others wait for their own node's pass.
    @Test func aPassPairsNoTwoSeekersOfOtherNodes() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let now = Date()
        let (a, b) = (try await storage.joinAsNode(now: now), try await storage.joinAsNode(now: now))
        var seekers: [Int64] = []
        // Three seekers on b, then one on a.
        for (index, node) in [b, b, b, a].enumerated() {
            let player = try await storage.createPlayer(
                name: "other\(index)", passwordHash: "h", now: now, token: nil)
            seekers.append(player.id!)
            try await storage.addSeek(
                SharedSeek(
                    playerID: player.id!, node: node, rating: 1500, colourBalance: 0, control: .standard,
                    since: now + Double(index)))
        }
        let pass = try await storage.pairSeeks(node: a, aliveAfter: now - 10, now: now, limit: 8) { seeks in
            Lobby.pick(seeks, node: a, now: now, gap: 100, widening: 25)
        }
        #expect(!pass.full && !pass.skipped)
        #expect(pass.games.map { Set([$0.x.id!, $0.o.id!]) } == [Set([seekers[0], seekers[3]])])
        let left = try await storage.rows("SELECT player_id FROM seek ORDER BY player_id").map {
            try $0.decode(Int64.self)
        }
        #expect(left == [seekers[1], seekers[2]])
        await storage.close()
    }

    /// A pass's statements each read what was committed when they began, so its pick may hold a
    /// player marked for engine help since its seeks were locked (made here by a pick that pairs
    /// the marked seeker as an earlier batch held it): the pair is not created, every seek stays,
    /// and the pass says to look again.
    @Test func aPairWithAPlayerMarkedDuringThePassIsLeftOut() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let now = Date()
        let node = try await storage.joinAsNode(now: now)
        var seeks: [SharedSeek] = []
        for index in 0..<3 {
            let player = try await storage.createPlayer(
                name: "marked\(index)", passwordHash: "h", now: now, token: nil)
            seeks.append(
                SharedSeek(
                    playerID: player.id!, node: node, rating: 1500, colourBalance: 0, control: .standard,
                    since: now + Double(index)))
            try await storage.addSeek(seeks[index])
        }
        _ = try await storage.moderate(
            .markEngineHelp,
            entry: ModerationEntry(
                at: now, moderator: "mod", action: ModerationChange.markEngineHelp.action,
                playerID: seeks[0].playerID, playerName: "marked0", detail: "", reason: "engine"))
        let earlier = seeks
        let pass = try await storage.pairSeeks(node: node, aliveAfter: now - 10, now: now, limit: 8) { _ in
            [(first: earlier[0], second: earlier[1], firstIsX: true)]
        }
        #expect(pass.games.isEmpty && pass.skipped)
        #expect(try await storage.rows("SELECT COUNT(*) FROM seek").first?.decode(Int.self) == 3)
        #expect(try await storage.rows("SELECT COUNT(*) FROM game").first?.decode(Int.self) == 0)
        await storage.close()
    }
}

/// The time limits below catch a wait that would never end, not a slow one: a whole run on two
/// busy cores has taken one of these tests past a minute (its database created, and each
/// statement run, beside a hundred others on the same PostgreSQL server).
@Suite struct HeartbeatTests {
    /// With every connection of the pool held busy, the heartbeat still renews the node's lease:
    /// it has a connection of its own. (Were it queued behind the pool, it would wait for the
    /// holders, which wait for it: the time limit fails the test.)
    @Test(.timeLimit(.minutes(3))) func theHeartbeatRenewsWhileThePoolIsBusy() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let start = Date(timeIntervalSince1970: 1_000_000)
        let node = try await storage.joinAsNode(now: start)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let release = Flag()
        let holders = (0..<PostgresStorage.poolSize).map { _ in
            Task {
                try await storage.client.withConnection { _ in
                    holding.yield()
                    while !release.isSet { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
        }
        var count = 0
        for await _ in held {
            count += 1
            if count == PostgresStorage.poolSize { break }
        }

        try await storage.heartbeat(node: node, now: start + 7, aliveAfter: start - 3)
        // Read through a connection of the test's own: the pool is still all taken.
        let observer = try await PostgresConnection.connect(
            configuration: storage.configuration, id: 99, logger: storage.logger)
        let seen = try await observer.query(
            "SELECT seen_at FROM node WHERE id = \(node)", logger: storage.logger
        )
        .collect().first?.decode(Double.self)
        let busy = try await observer.query(
            """
            SELECT COUNT(*) FROM pg_stat_activity
            WHERE datname = current_database() AND backend_type = 'client backend'
            """, logger: storage.logger
        ).collect().first?.decode(Int.self)
        try await observer.close()
        #expect(seen == start.timeIntervalSince1970 + 7)
        // The pool's connections, the heartbeat's and the observer's.
        #expect(busy == PostgresStorage.poolSize + 2)

        release.set()
        for holder in holders { try await holder.value }
        await storage.close()
    }
}

extension HeartbeatTests {
    /// A heartbeat whose statement hangs (here: it waits for a lock another connection holds on
    /// the node's row) gives up once its time limit has passed on the server's clock, and drops
    /// its connection; the next heartbeat opens a new one and renews the lease. (Without a limit
    /// it would wait as long as the lock is held: the time limit fails the test.)
    @Test(.timeLimit(.minutes(3))) func aHeartbeatThatHangsGivesUpAndConnectsAgain() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let (clock, logger) = (TestClock(), storage.logger)
        let start = Date(timeIntervalSince1970: 1_000_000)
        let node = try await storage.joinAsNode(now: start)
        let limit = Duration.seconds(5)
        /// The server process of the heartbeat's connection.
        func backend() async throws -> Int32 {
            try await storage.heartbeatConnection.run(within: limit, on: clock) { connection in
                try await connection.query("SELECT pg_backend_pid()", logger: logger).collect().first!.decode(
                    Int32.self)
            }
        }
        let first = try await backend()
        let locker = try await PostgresConnection.connect(
            configuration: storage.configuration, id: 98, logger: logger)
        try await locker.query("BEGIN", logger: logger)
        try await locker.query("SELECT id FROM node WHERE id = \(node) FOR UPDATE", logger: logger)

        let beat = Task {
            try await storage.heartbeat(
                node: node, now: start + 7, aliveAfter: start - 3, within: limit, clock: clock)
        }
        // Once it waits for the lock, its time limit passes.
        let waiting: PostgresQuery = """
            SELECT COUNT(*) FROM pg_stat_activity WHERE pid = \(first) AND wait_event_type = 'Lock'
            """
        while try await locker.query(waiting, logger: logger).collect().first!.decode(Int.self) == 0 {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await clock.advanceWhenArmed(by: limit)
        await #expect(throws: StorageTimedOut.self) { try await beat.value }

        try await locker.query("ROLLBACK", logger: logger)
        try await storage.heartbeat(
            node: node, now: start + 9, aliveAfter: start - 1, within: limit, clock: clock)
        #expect(try await backend() != first)
        let seen = try await locker.query("SELECT seen_at FROM node WHERE id = \(node)", logger: logger)
            .collect()
            .first?.decode(Double.self)
        // The heartbeat given up on may have reached the row after the lock went, but not back in time.
        #expect(seen == start.timeIntervalSince1970 + 9)
        try await locker.close()
        await storage.close()
    }
}

@Suite struct RelayMessageTests {
    /// A stored message for a node whose heartbeat stopped, or that left, is never read: a live
    /// node's heartbeat deletes it, and leaves the messages of live nodes and those for any node.
    @Test func storedMessagesForDeadOrGoneNodesAreDeleted() async throws {
        let url = try await postgresDatabase()
        let storage = try await PostgresStorage.open(url)
        let now = Date()
        let live = try await storage.joinAsNode(now: now)
        let dead = try await storage.joinAsNode(now: now - 60)
        let leaving = try await storage.joinAsNode(now: now)
        _ = try await storage.storeRelayMessages([("for the leaving one, before it left", leaving)])
        try await storage.leave(node: leaving)
        // Leaving took its own messages with it.
        #expect(try await storage.rows("SELECT COUNT(*) FROM relay_message").first?.decode(Int.self) == 0)
        // Stored in one statement, their ids in the order given.
        let ids = try await storage.storeRelayMessages([
            ("for the live one", live), ("for the dead one", dead), ("for the one that left", leaving),
            ("for any", nil),
        ])
        let (forLive, forAny) = (ids[0], ids[3])

        try await storage.heartbeat(node: live, now: now, aliveAfter: now - 10)
        let left = try await storage.rows("SELECT id FROM relay_message ORDER BY id").map {
            try $0.decode(Int64.self)
        }
        #expect(left == [forLive, forAny])
        #expect(try await storage.takeRelayMessage(id: forLive) == "for the live one")
        #expect(try await storage.takeRelayMessage(id: forLive) == nil)
        #expect(try await storage.takeRelayMessage(id: forAny) == "for any")
        await storage.close()
    }
}
