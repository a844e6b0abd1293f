import Logging
import NanashiRuntime
import PostgresNIO

/// One PostgreSQL connection outside the pool, for work that must not queue behind it (the
/// node's heartbeat): opened when first used, and opened again after it failed or took too long.
package actor DedicatedConnection {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private var connection: PostgresConnection?
    private var closed = false

    package init(configuration: PostgresConnection.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `work` on the connection (opening it first if needed, within the connection's own
    /// connect timeout), for at most `limit` on `clock`. After an error, or when the limit
    /// passes first (`StorageTimedOut`), the connection is dropped (closing it ends a statement still
    /// waiting on this side), and the next call opens a new one.
    package func run<T: Sendable>(
        within limit: Duration, on clock: any ServerClock,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        // Closed: the server is stopping.
        guard !closed else { throw CancellationError() }
        let open: PostgresConnection
        if let connection, !connection.isClosed {
            open = connection
        } else {
            open = try await PostgresConnection.connect(configuration: configuration, id: -1, logger: logger)
            connection = open
        }
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { .some(try await work(open)) }
                group.addTask {
                    try await clock.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard case .some(.some(let value)) = try await group.next() else {
                    // The limit came first: the work's statement fails once its connection is
                    // closed, so the group ends at once.
                    try? await open.close()
                    throw StorageTimedOut(limit: limit)
                }
                return value
            }
        } catch {
            if connection === open { connection = nil }
            try? await open.close()
            throw error
        }
    }

    /// Closes the connection for good.
    package func close() async {
        closed = true
        if let connection { try? await connection.close() }
        connection = nil
    }
}
