import Logging
import PostgresNIO

/// One PostgreSQL connection outside the pool, for work that must not queue behind it (the
/// node's heartbeat): opened when first used, and opened again after it failed.
actor DedicatedConnection {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private var connection: PostgresConnection?
    private var closed = false

    init(configuration: PostgresConnection.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `work` on the connection (opening it first if needed); after an error the
    /// connection is dropped, and the next call opens a new one.
    func run<T: Sendable>(_ work: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
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
            return try await work(open)
        } catch {
            connection = nil
            try? await open.close()
            throw error
        }
    }

    /// Closes the connection for good.
    func close() async {
        closed = true
        if let connection { try? await connection.close() }
        connection = nil
    }
}
