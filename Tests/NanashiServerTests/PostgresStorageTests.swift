import Foundation
import NanashiCore
import NanashiTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import NanashiServer

// What only PostgreSQL's storage does: several servers on one database.

/// A new database on the test server and the URL to it; a warning and a stop without one.
private func database() throws -> String {
    if let why = TestPostgres.unavailable {
        Issue.record(Comment(rawValue: why), severity: .warning)
        try Test.cancel(Comment(rawValue: why))
    }
    return try TestPostgres.database()
}

@Suite struct PostgresStorageTests {
    /// Two games of ann end at the same moment on two servers: the second is rated from the
    /// first's result, not from the rating both read before.
    @Test func twoGamesOfOnePlayerEndingTogetherOnTwoServersLoseNeitherUpdate() async throws {
        let url = try database()
        let (first, second, watcher) = (
            try await PostgresStorage.open(url), try await PostgresStorage.open(url),
            try await PostgresStorage.open(url)
        )
        let ann = try await first.createPlayer(name: "ann", passwordHash: "h", now: Date(), token: nil)
        let bob = try await first.createPlayer(name: "bob", passwordHash: "h", now: Date(), token: nil)
        let cy = try await first.createPlayer(name: "cy", passwordHash: "h", now: Date(), token: nil)
        let game1 = try await first.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: Date())
        let game2 = try await second.createGame(xID: ann.id!, oID: cy.id!, control: .standard, now: Date())

        // The first server rates game 1 and, before it commits, holds on until the second server
        // is waiting to rate game 2.
        let inside = Flag()
        let release = DispatchSemaphore(value: 0)
        let firstFinish = Task {
            try await first.finishGame(
                id: game1, outcome: Outcome(winner: .x, reason: .resignation), now: Date()
            ) {
                x, o in
                inside.set()
                _ = release.wait(timeout: .now() + 60)
                return xWins(x, o)
            }
        }
        while !inside.isSet { try await Task.sleep(for: .milliseconds(5)) }
        let secondDone = Flag()
        let secondFinish = Task {
            defer { secondDone.set() }
            return try await second.finishGame(
                id: game2, outcome: Outcome(winner: .x, reason: .resignation), now: Date(), rate: xWins)
        }
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
        let one = try #require(try await firstFinish.value)
        let two = try #require(try await secondFinish.value)
        #expect(waited, "the second server rated game 2 without waiting for game 1's rating")
        #expect(two.x.before == one.x.after)
        let stored = try #require(try await watcher.player(id: ann.id!))
        #expect(stored.games == 2 && stored.wins == 2 && stored.glicko == two.x.after)
        #expect(try await watcher.leaderboard(limit: 10, offset: 0).total == 3)
        for storage in [first, second, watcher] { await storage.close() }
    }

    /// Many games of one player end at once over two servers: every one is counted, and each
    /// rating change starts where the one before it ended.
    @Test func aBurstOfFinishesOverTwoServersIsRatedOneAfterAnother() async throws {
        let url = try database()
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
        let url = try database()
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
        let url = try database()
        let name = String(url.split(separator: "/").last!)
        let wrong = try TestPostgres.wrongPassword(database: name)
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
        let url = try database()
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
