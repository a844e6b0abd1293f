import Logging
import NanashiCluster
import NanashiRuntime
import NanashiServer

/// A server on an OS-assigned port over a temporary database, with test-sized costs, on a
/// clock that stands still until the test moves it: no timer fires unless the test says so.
public final class TestServer {
    public let database: TemporaryDatabase
    /// The server's clock (`settings.clock`).
    public let clock = TestClock()
    public var settings: ServerSettings
    public private(set) var server: Server?

    /// - Parameter nodes: the nodes in this process on one database that this server joins,
    ///   if any (`database` is theirs).
    package init(
        database: TemporaryDatabase? = nil, joining nodes: InMemoryNodes? = nil,
        logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
        configure: (inout ServerSettings) -> Void = { _ in }
    ) async throws {
        self.database = try database ?? TemporaryDatabase()
        settings = ServerSettings()
        settings.port = 0
        settings.databasePath = self.database.path
        settings.passwordCost = .testing
        settings.clock = clock
        settings.abandonGrace = .seconds(30)
        // Moves are answered as soon as they are stored, as the tests have always seen them.
        settings.moveCommitDelay = .zero
        // Every test comes from 127.0.0.1: the per-address limits are tested on their own.
        settings.loginsPerMinute = 10_000
        settings.registrationsPerHour = 10_000
        settings.failedLoginsPerAddressBeforeThrottle = 10_000
        settings.readBurstPerAddress = 100_000
        settings.connectionBurstPerAddress = 100_000
        // The engine analyses nothing of its own accord unless a test says so.
        settings.backgroundAnalysesPerHour = 0
        configure(&settings)
        server = try await Server.start(settings, logger: logger, joining: nodes)
    }

    public var port: Int { server!.port }

    public func client(from source: String = "127.0.0.1") throws -> TestClient {
        try TestClient(port: port, from: source)
    }

    public func stop() async {
        await server?.stop()
        server = nil
    }
}
