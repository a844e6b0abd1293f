import Foundation
import Logging
import NanashiCluster
import NanashiServerTestSupport
import NanashiStorage
import Testing

@testable import NanashiServer

/// How a test's nodes reach each other: on one PostgreSQL database (`PostgresCluster`), or in
/// this process on one SQLite file (`InMemoryCluster`, no database server needed).
enum NodesBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case postgres
    case memory

    var testDescription: String { rawValue }
}

/// Where a test's nodes meet: a new PostgreSQL database, or a new SQLite file and the
/// `InMemoryNodes` beside it.
struct NodesPlace {
    let backend: NodesBackend
    /// PostgreSQL's database.
    let url: String?
    /// The SQLite file and the nodes in memory.
    let file: TemporaryDatabase?
    let memory: InMemoryNodes?

    /// A new place; skips the test, saying why, on PostgreSQL without one to test against.
    init(_ backend: NodesBackend) async throws {
        self.backend = backend
        switch backend {
        case .postgres:
            (url, file, memory) = (try await postgresDatabase(), nil, nil)
        case .memory:
            (url, file, memory) = (nil, try TemporaryDatabase(), InMemoryNodes())
        }
    }

    /// `count` new nodes here, on one test clock.
    func nodes(
        _ count: Int, clock: TestClock = TestClock(), lease: Duration = .seconds(10)
    ) async throws -> [TestServer] {
        if let url { return try await NanashiServerTests.nodes(count, url: url, clock: clock, lease: lease) }
        var servers: [TestServer] = []
        for _ in 0..<count {
            servers.append(
                try await TestServer(database: file, joining: memory) {
                    $0.clock = clock
                    $0.nodeLease = lease
                })
        }
        return servers
    }

    /// A connection of its own to the database.
    func storage() async throws -> any Storage {
        if let url { return try await PostgresStorage.open(url) }
        return try SQLiteStorage(path: file!.path)
    }

    /// The node that hosts `game`, alive or not (nodes are numbered from 1 in the order they
    /// started).
    func host(of game: Int64) async throws -> Int64 {
        if let url { return try await hostingNode(of: game, url: url) }
        return try #require(memory!.host(ofGame: game, aliveAfter: .distantPast))
    }

    /// The nodes of the seeks in the pool, in order.
    func seekNodes() async throws -> [Int64] {
        if let memory { return memory.seeks().map(\.node).sorted() }
        let database = try await PostgresStorage.open(url!)
        defer { Task { await database.close() } }
        return try await database.rows("SELECT node FROM seek ORDER BY node").map {
            try $0.decode(Int64.self)
        }
    }
}
