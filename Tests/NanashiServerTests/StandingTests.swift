import Foundation
import GRDB
import NanashiCore
import NanashiStorage
import Testing

@testable import NanashiServer

/// The leaderboard and ranks straight from the player table, the slow way, to check the
/// bucketed queries against.
private func naiveStandings(_ storage: SQLiteStorage) throws -> [String] {
    try storage.pool.read { db in
        try String.fetchAll(db, sql: "SELECT name FROM player WHERE games > 0 ORDER BY rating DESC, name_key")
    }
}

@Test func bucketedPagesAndRanksMatchTheFullOrder() async throws {
    let file = try TemporaryDatabase()
    _ = try BenchmarkSeed.seed(databaseAt: file.path, players: 400, games: 0, bots: 2)
    let storage = try SQLiteStorage(path: file.path)
    // Ties and ratings on and around bucket edges, some unrated, one negative.
    let edges: [(String, Double, Int)] = [
        ("edge-a", 1504, 3), ("edge-b", 1504, 1), ("edge-c", 1503.999_999, 2), ("edge-d", 1512, 0),
        ("edge-e", 1511.5, 1), ("edge-f", -3.5, 1), ("edge-g", 1504, 1),
    ]
    for (name, rating, games) in edges {
        var player = try await storage.createPlayer(name: name, passwordHash: "h", now: Date(), token: nil)
        player.rating = rating
        player.games = games
        let changed = player
        try await storage.pool.write { db in try changed.update(db) }
    }
    let expected = try naiveStandings(storage)
    #expect(expected.count == 406)
    for offset in [0, 1, 19, 20, 199, 200, 385, 399, 405, 406, 500] {
        let page = try await storage.leaderboard(limit: 20, offset: offset)
        #expect(page.total == 406)
        #expect(page.entries.map(\.name) == Array(expected.dropFirst(offset).prefix(20)))
        #expect(page.entries.map(\.rank) == Array((offset + 1)..<(offset + 1 + page.entries.count)))
    }
    for (index, name) in expected.enumerated() {
        #expect(try await storage.profile(name: name)?.rank == index + 1)
    }
    #expect(try await storage.profile(name: "edge-d")?.rank == nil)
    #expect(try await storage.profile(name: "bot0001")?.rank == nil)
}

@Test func finishingGamesKeepsTheBucketsInStep() async throws {
    let file = try TemporaryDatabase()
    let storage = try SQLiteStorage(path: file.path)
    var players: [PlayerRow] = []
    for number in 1...6 {
        players.append(
            try await storage.createPlayer(name: "p\(number)xx", passwordHash: "h", now: Date(), token: nil))
    }
    let glicko = Glicko2()
    for round in 0..<12 {
        let x = players[round % 6]
        let o = players[(round + 1 + round / 6) % 6]
        guard x.id != o.id else { continue }
        let game = try await storage.createGame(xID: x.id!, oID: o.id!, control: .standard, now: Date())
        _ = try await storage.finishGame(
            id: game, outcome: Outcome(winner: round % 3 == 0 ? nil : .x, reason: .resignation), now: Date()
        ) {
            a, b in
            let score = round % 3 == 0 ? 0.5 : 1
            return (
                glicko.rated(a.glicko, results: [(b.glicko, score)]),
                glicko.rated(b.glicko, results: [(a.glicko, 1 - score)])
            )
        }
    }
    let expected = try naiveStandings(storage)
    let page = try await storage.leaderboard(limit: 100, offset: 0)
    #expect(page.entries.map(\.name) == expected && page.total == expected.count)
    let buckets = try await storage.pool.read { db in try SQLiteStorage.standingBuckets(db) }
    #expect(buckets.reduce(0) { $0 + $1.players } == expected.count)
    for (index, name) in expected.enumerated() {
        #expect(try await storage.profile(name: name)?.rank == index + 1)
    }
}

@Test func aDatabaseFromBeforeTheBucketsIsReadThenMigrated() async throws {
    let file = try TemporaryDatabase()
    let queue = try DatabaseQueue(path: file.path)
    try SQLiteStorage.migrator.migrate(queue, upTo: "v1 players, tokens, games, moves, rating changes")
    try await queue.write { db in
        // In the columns of v1 (`PlayerRow` has more since).
        for (name, rating, games) in [("ann", 1600.0, 2), ("bob", 1700.0, 1), ("cid", 1800.0, 0)] {
            try db.execute(
                sql: """
                    INSERT INTO player (name, name_key, password_hash, rating, rd, volatility, games, wins,
                                        losses, draws, created_at)
                    VALUES (?, ?, 'h', ?, 80, 0.06, ?, ?, 0, 0, 0)
                    """,
                arguments: [name, name, rating, games, games])
        }
    }
    let board = try SQLiteStorage.leaderboard(databaseAt: file.path, limit: 10, offset: 0)
    #expect(board.total == 2 && board.entries.map(\.name) == ["bob", "ann"])
    #expect(try await queue.read { db in try db.tableExists("standing_bucket") } == false)

    // The server brings the file up to date: the buckets start from the players already rated.
    let storage = try SQLiteStorage(path: file.path)
    #expect(try await storage.leaderboard(limit: 10, offset: 1).entries.map(\.name) == ["ann"])
    #expect(try await storage.leaderboard(limit: 10, offset: 0).total == 2)
    #expect(try await storage.profile(name: "ann")?.rank == 2)
}

/// Accounts closed before v9 were still counted in the standings: the migration counts them out.
@Test func aDatabaseWithClosedAccountsFromBeforeV9IsCountedAgain() async throws {
    let file = try TemporaryDatabase()
    let queue = try DatabaseQueue(path: file.path)
    try SQLiteStorage.migrator.migrate(queue, upTo: "v8 start positions, refused challenges")
    try await queue.write { db in
        for (name, rating, closed) in [("ann", 1600.0, false), ("bob", 1700.0, true), ("cid", 1800.0, false)]
        {
            try db.execute(
                sql: """
                    INSERT INTO player (name, name_key, password_hash, rating, rd, volatility, games, wins,
                                        losses, draws, created_at, closed_at)
                    VALUES (?, ?, 'h', ?, 80, 0.06, 1, 1, 0, 0, 0, ?)
                    """,
                arguments: [name, name, rating, closed ? 1.0 : nil])
        }
    }
    let storage = try SQLiteStorage(path: file.path)
    let board = try await storage.leaderboard(limit: 10, offset: 0)
    #expect(board.total == 2 && board.entries.map(\.name) == ["cid", "ann"])
    #expect(try await storage.profile(name: "ann")?.rank == 2)
    #expect(try await storage.profile(name: "bob")?.rank == nil)
}
