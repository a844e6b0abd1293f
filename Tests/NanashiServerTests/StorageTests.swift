import Foundation
import GRDB
import NanashiCore
import NanashiProtocol
import NanashiServerTestSupport
import NanashiStorage
import Testing

@testable import NanashiServer

// What only SQLite's storage does; what both do is in StorageContractTests.

@Test func theOperatorsReadOnlyViewSeesTheServersStandings() async throws {
    let file = try TemporaryDatabase()
    let storage = try SQLiteStorage(path: file.path)
    let (ann, bob) = try await storage.createPlayers("ann", "bob")
    let id = try await storage.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: Date())
    _ = try await storage.finishGame(
        id: id, outcome: Outcome(winner: .x, reason: .resignation), now: Date(), rate: xWins)
    let board = try await storage.leaderboard(limit: 20, offset: 0)
    #expect(board.total == 2)
    #expect(try SQLiteStorage.leaderboard(databaseAt: file.path, limit: 20, offset: 0) == board)
}

@Test func aProfileReadsTheLatestGamesOffTheIndexes() throws {
    let database = try TemporaryDatabase()
    let storage = try SQLiteStorage(path: database.path)
    let plan = try storage.pool.read { db in
        try Row.fetchAll(
            db, sql: "EXPLAIN QUERY PLAN " + SQLiteStorage.recentGamesQuery, arguments: [1, 10, 1, 10, 1, 10]
        ).map { $0["detail"] as String }
    }
    #expect(plan.contains { $0.contains("USING INDEX game_x_ended") }, "\(plan)")
    #expect(plan.contains { $0.contains("USING INDEX game_o_ended") }, "\(plan)")
    // Only the merged few are sorted: neither side's games are.
    #expect(plan.filter { $0.contains("TEMP B-TREE") }.count <= 1, "\(plan)")
}

/// The writing connection keeps the moves' pages in its cache and checkpoints the WAL every
/// 8,192 pages; the reading connections keep SQLite's defaults.
@Test func theWriterCachesMorePagesAndCheckpointsLessOften() throws {
    let database = try TemporaryDatabase()
    let storage = try SQLiteStorage(path: database.path)
    let writer = try storage.pool.writeWithoutTransaction { db in
        try (Int.fetchOne(db, sql: "PRAGMA cache_size"), Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint"))
    }
    #expect(writer.0 == -65536)
    #expect(writer.1 == 8192)
    let reader = try storage.pool.read { db in
        try (Int.fetchOne(db, sql: "PRAGMA cache_size"), Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint"))
    }
    #expect(reader.0 == -2000)
    #expect(reader.1 == 1000)
}

/// A database file that a newer server has migrated further is refused, and left as it was.
@Test func aFileAtANewerSchemaIsRefused() throws {
    let database = try TemporaryDatabase()
    let storage = try SQLiteStorage(path: database.path)
    #expect(SQLiteStorage.schemaVersion == 9)
    try storage.pool.write { db in
        try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v10 from a newer server')")
    }
    #expect(throws: StorageError.newerSchema(database: 10, node: 9)) {
        try SQLiteStorage(path: database.path)
    }
    #expect(
        "\(StorageError.newerSchema(database: 10, node: 9))"
            == "the database's schema is at version 10, newer than this server's 9: "
            + "upgrade this server before starting it on that database")
}
