import Foundation
import Logging
import NanashiCluster
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import NanashiTransport
import NanashiWeb
import Synchronization

/// The Nanashi online server: accounts, matchmaking, authoritative games with clocks, Glicko-2
/// ratings and a leaderboard, over protocol v1 (see docs/PROTOCOL.md), stored in SQLite or in a
/// PostgreSQL database that several servers share.
///
/// ```swift
/// let server = try await Server.start(ServerSettings(), logger: Logger(label: "nanashi"))
/// print("listening on port \(server.port)")
/// await server.waitUntilStopped()
/// ```
public final class Server: Sendable {
    /// The port the server listens on.
    public var port: Int { transport.port }
    /// The HTTP port of the web pages, if the server serves them (`ServerSettings.httpPort`).
    public var httpPort: Int? { transport.httpPort }
    /// The port of `/metrics`, if the server serves it (`ServerSettings.metricsPort`).
    public var metricsPort: Int? { transport.metricsPort }
    /// Connections open now on both ports, counted from their accept.
    var openConnections: Int { transport.openConnections }

    private let transport: Transport
    /// Internal for the tests: what they do to a node in place of another node.
    let lobby: Lobby
    /// The analyses of finished games.
    let analyst: Analyst
    private let storage: any Storage
    private let engines: EnginePool
    private let accepting: Task<Void, Never>
    private let sweeping: Task<Void, Never>
    /// Acts on what moderators do while the server runs (`ModerationWatch`).
    private let moderating: Task<Void, Never>
    /// Analyses rated games of its own accord (`BackgroundAnalysis`).
    private let analysing: Task<Void, Never>
    private let settings: ServerSettings
    private let logger: Logger
    /// The stop, once `stop()` began it: one for every call.
    private let stopping = Mutex<Task<Void, Never>?>(nil)

    private init(
        transport: Transport, lobby: Lobby, analyst: Analyst, storage: any Storage, engines: EnginePool,
        accepting: Task<Void, Never>,
        sweeping: Task<Void, Never>, moderating: Task<Void, Never>, analysing: Task<Void, Never>,
        settings: ServerSettings, logger: Logger
    ) {
        self.transport = transport
        self.lobby = lobby
        self.analyst = analyst
        self.storage = storage
        self.engines = engines
        self.accepting = accepting
        self.sweeping = sweeping
        self.moderating = moderating
        self.analysing = analysing
        self.settings = settings
        self.logger = logger
    }

    /// Makes Swift concurrency run its tasks on the `count` event loop threads that serve the
    /// sockets, so a request does not hop between those threads and the concurrency pool on its
    /// way in and out. Call once, from the main thread, before the server starts; a process that
    /// reads its terminal with blocking calls (the clients) must not.
    public static func runConcurrencyOnEventLoops(count: Int) {
        EventLoops.runConcurrencyOnThem(count: count)
    }

    /// Opens the database (resuming unfinished games), binds the port and starts serving.
    public static func start(_ settings: ServerSettings, logger: Logger) async throws -> Server {
        try await start(settings, logger: logger, joining: nil)
    }

    /// Starts as `start(_:logger:)` does; with `nodes`, as one of the nodes in this process that
    /// share its SQLite database (for tests of games across nodes without PostgreSQL).
    package static func start(_ settings: ServerSettings, logger: Logger, joining nodes: InMemoryNodes?)
        async throws -> Server
    {
        let database = try DatabaseAddress(parsing: settings.databasePath)
        let storage: any Storage =
            switch database {
            case .sqlite(let path):
                try SQLiteStorage(
                    path: path, busyTimeout: settings.databaseBusyTimeout,
                    moveCommitDelay: settings.moveCommitDelay)
            case .postgres(let address):
                try await PostgresStorage.open(address, moveDelay: settings.moveCommitDelay, logger: logger)
            }
        let engines = EnginePool(
            threads: settings.engineThreads, maximumWaiting: settings.engineQueue,
            now: { [clock = settings.clock] in clock.now })
        // With PostgreSQL this server is one node of several: it joins them before it pairs or
        // resumes anything.
        let cluster: (any Cluster)? =
            if let shared = storage as? PostgresStorage {
                try await PostgresCluster.join(
                    shared, now: settings.clock.date, gather: settings.moveCommitDelay, clock: settings.clock,
                    logger: logger)
            } else if let nodes {
                nodes.join(storage: storage, now: settings.clock.date)
            } else {
                nil
            }
        let lobby = Lobby(
            storage: storage, settings: settings, logger: logger, engines: engines, cluster: cluster)
        try await lobby.start()
        let analyst = Analyst(storage: storage, engines: engines, settings: settings, logger: logger)
        let accounts = Accounts(storage: storage, settings: settings)
        let reads = AddressReads(settings)
        let metrics = ServerMetrics()
        let transport = try await Transport.bind(settings, metrics: metrics)
        let source = ServerWebSource(storage: storage, lobby: lobby, serverMetrics: metrics)
        let sites = (pages: WebSite(source: source), metrics: WebSite(source: source, part: .metrics))
        let accepting = Task {
            await transport.run(logger: logger, sites: sites, reads: reads) { outbox, peer, address in
                logger.debug("connection \(outbox.id) from \(peer)")
                return Connection(
                    outbox: outbox, peer: peer, address: address, lobby: lobby, analyst: analyst,
                    accounts: accounts, reads: reads,
                    storage: storage, settings: settings, metrics: metrics, logger: logger)
            }
        }
        // One sweep for all connections, a few times per timeout, rather than a timer each.
        let shortest = min(settings.idleTimeout, settings.loginTimeout)
        let sweepInterval = settings.sweepInterval ?? max(min(shortest / 4, .seconds(5)), .milliseconds(10))
        let sweeping = Task {
            await transport.sweepIdle(
                timeout: settings.idleTimeout, loginTimeout: settings.loginTimeout, every: sweepInterval,
                logger: logger)
        }
        let moderating = Task {
            await ModerationWatch(
                storage: storage, lobby: lobby, clock: settings.clock,
                interval: settings.moderationCheckInterval, logger: logger
            ).run()
        }
        let analysing = Task {
            await BackgroundAnalysis(
                storage: storage, analyst: analyst, clock: settings.clock,
                perHour: settings.backgroundAnalysesPerHour, logger: logger, cluster: cluster
            ).run()
        }
        logger.info("listening on \(settings.host):\(transport.port), database \(database)")
        if let httpPort = transport.httpPort {
            logger.info("serving the web on \(settings.httpHost):\(httpPort)")
        }
        if let metricsPort = transport.metricsPort {
            logger.info("serving /metrics on \(settings.metricsHost):\(metricsPort)")
        }
        return Server(
            transport: transport, lobby: lobby, analyst: analyst, storage: storage, engines: engines,
            accepting: accepting,
            sweeping: sweeping, moderating: moderating, analysing: analysing, settings: settings,
            logger: logger)
    }

    /// Stops accepting connections and pairing seeks, halts the games in progress where they
    /// stand (they resume at the next start), sends every connection `shutdown` and closes it
    /// once its queued replies are written (or after `ServerSettings.shutdownGrace` if its
    /// client does not read them). Every reply sent was stored first, so nothing is left to
    /// write to the database.
    public func stop() async {
        let task = stopping.withLock { stopping in
            if let task = stopping { return task }
            let task = Task {
                logger.info("stopping")
                await refuseNewGamesAndConnections()
                sweeping.cancel()
                moderating.cancel()
                analysing.cancel()
                await lobby.stop()
                engines.stop()
                await transport.close(grace: settings.shutdownGrace)
                await storage.close()
            }
            stopping = task
            return task
        }
        await task.value
    }

    /// The first step of `stop()`, at once: no new connection is accepted (the listeners close)
    /// and no new game starts (`shutting_down`), while the games in progress are stopped.
    func refuseNewGamesAndConnections() async {
        await transport.stopAccepting()
        await lobby.refuseNewGames()
    }

    /// Stops as if the process were killed: connections and the database's are closed at once,
    /// nothing is let go in storage or told to anyone (for tests of a node that dies).
    func kill() async {
        sweeping.cancel()
        moderating.cancel()
        analysing.cancel()
        await lobby.abandon()
        engines.stop()
        await transport.abort()
        await storage.close()
    }

    /// Returns once the listener has stopped and, if `stop()` closed it, once the stop is done
    /// (the listener closes at its start, before the games are stopped).
    public func waitUntilStopped() async {
        await accepting.value
        if let task = stopping.withLock({ $0 }) { await task.value }
    }
}
