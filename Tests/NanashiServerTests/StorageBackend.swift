import Foundation
import Logging
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// The two implementations of `Storage`, for the tests that must hold for both.
enum StorageBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A new, empty storage of this kind, and the database it is on.
    ///
    /// Without PostgreSQL (`TestPostgres.unavailable`), a PostgreSQL case records a warning that
    /// says why, and stops there.
    func open() async throws -> OpenedStorage {
        switch self {
        case .sqlite:
            let file = try TemporaryDatabase()
            return OpenedStorage(storage: try SQLiteStorage(path: file.path), file: file, url: file.path)
        case .postgres:
            let url = try await postgresDatabase()
            return OpenedStorage(storage: try await PostgresStorage.open(url), file: nil, url: url)
        }
    }
}

/// A storage opened for a test, with the temporary file it keeps alive (SQLite) and its `--db`.
struct OpenedStorage {
    let storage: any Storage
    let file: TemporaryDatabase?
    let url: String

    /// Another storage on the same database, as a second server would open it.
    func another() async throws -> any Storage {
        switch try DatabaseAddress(parsing: url) {
        case .sqlite(let path): try SQLiteStorage(path: path)
        case .postgres(let address): try await PostgresStorage.open(address, logger: .quiet)
        }
    }
}

extension Storage {
    /// Two new players by these names (password hash `h`, made now, without a token).
    func createPlayers(_ first: String, _ second: String) async throws -> (PlayerRow, PlayerRow) {
        (
            try await createPlayer(name: first, passwordHash: "h", now: Date(), token: nil),
            try await createPlayer(name: second, passwordHash: "h", now: Date(), token: nil)
        )
    }
}

extension PostgresStorage {
    /// Opens the database at a `postgres://` URL, logging nothing.
    static func open(_ url: String) async throws -> PostgresStorage {
        guard case .postgres(let address) = try DatabaseAddress(parsing: url) else {
            throw DatabaseAddressError("not a PostgreSQL URL: \(url)")
        }
        return try await open(address, logger: .quiet)
    }
}

extension Logger {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}

/// x wins: both players' new ratings, as the server computes them without ageing.
@Sendable func xWins(_ x: PlayerRow, _ o: PlayerRow) -> (Rating, Rating) {
    (Glicko2().rated(x.glicko, results: [(o.glicko, 1)]), Glicko2().rated(o.glicko, results: [(x.glicko, 0)]))
}
