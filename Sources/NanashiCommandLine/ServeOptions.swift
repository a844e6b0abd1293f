import ArgumentParser
import Logging
import NanashiRuntime
import NanashiServer

/// The server's own defaults, which the options show and start from.
private let defaults = ServerSettings()

/// `nanashi serve`'s options: where the server listens, its database, its limits and TLS.
public struct ServeOptions: ParsableArguments {
    public init() {}

    @Option(help: "The address to listen on.")
    var host = defaults.host

    @Option(help: "The TCP port (0 lets the system choose).")
    var port = defaults.port

    @Option(help: "Serve the web pages and the WebSocket at /ws on this HTTP port (off unless given).")
    var http: Int?

    @Option(help: "The address the HTTP port listens on.")
    var httpHost = defaults.httpHost

    @Option(help: "Serve Prometheus /metrics on this port, apart from the pages (off unless given).")
    var metricsPort: Int?

    @Option(help: "The address the metrics port listens on (keep it private).")
    var metricsHost = defaults.metricsHost

    @Option(
        help: ArgumentHelp(
            "An origin (https://example.org) whose pages may open the WebSocket, besides this server's own.",
            discussion: "Repeat for more than one."))
    var allowOrigin: [String] = []

    @Option(
        help: ArgumentHelp(
            "A name this server's pages are reached by (example.org, example.org:8443).",
            discussion:
                "Browsers' WebSockets are taken only from pages served as these names, the hosts of --allow-origin, localhost or an address. Repeat for more than one."
        ))
    var publicHost: [String] = []

    /// The database: nanashi.sqlite unless --db, --db-file or NANASHI_DB names one.
    @OptionGroup var database: DatabaseOptions

    @Option(help: "Seconds a player may be away from a game in progress before losing it.")
    var grace = Int(defaults.abandonGrace.inSeconds)

    @Option(
        help: ArgumentHelp(
            "With PostgreSQL: seconds after its last heartbeat that a node counts as dead.",
            discussion: "The other nodes then take its games over; each node beats five times a lease."))
    var nodeLease = Int(defaults.nodeLease.inSeconds)

    @Option(help: "Seconds a connection may send nothing before it is closed.")
    var idleTimeout = Int(defaults.idleTimeout.inSeconds)

    @Option(help: "Messages a connection may send at once before it is rate limited.")
    var messageBurst = defaults.messageBurst

    @Option(help: "Messages per second that budget refills by.")
    var messageRate = defaults.messageRate

    @Option(help: "Queries and page requests one address may send at once, over all its connections.")
    var readBurst = defaults.readBurstPerAddress

    @Option(help: "Queries and page requests per second that an address's budget refills by.")
    var readRate = defaults.readRatePerAddress

    @Option(help: "A PEM certificate chain (Let's Encrypt's fullchain.pem): serve TLS; needs --tls-key.")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert (Let's Encrypt's privkey.pem).")
    var tlsKey: String?

    @Option(help: "Open connections at most; more are refused with 'busy'.")
    var maxConnections = defaults.maximumConnections

    @Option(help: "Open connections from one address at most; more are refused with 'rate_limited'.")
    var maxPerAddress = defaults.maximumConnectionsPerAddress

    @Option(help: "New connections one address may open at once; more are closed without a word.")
    var connectionBurst = defaults.connectionBurstPerAddress

    @Option(help: "New connections per second that an address's budget refills by.")
    var connectionRate = defaults.connectionRatePerAddress

    @Option(help: "Logins one address may make per minute.")
    var loginsPerMinute = defaults.loginsPerMinute

    @Option(help: "Registrations one address may make per hour.")
    var registrationsPerHour = defaults.registrationsPerHour

    @Option(
        help:
            "Milliseconds a batch of moves waits for more before it is stored, and (PostgreSQL) a batch of messages to other nodes before it is sent; 0 at once."
    )
    var commitDelay = Int(defaults.moveCommitDelay.wholeMilliseconds)

    @Option(
        help: "Rated games analysed an hour of the server's own accord, for 'nanashi admin suspects'; 0 none."
    )
    var backgroundAnalyses = defaults.backgroundAnalysesPerHour

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(
        help: ArgumentHelp(
            "Event loop threads that serve the sockets and run the server's tasks.",
            discussion:
                "Default: one a core but one, at least one, so that the storage and engine threads keep a core (NIO_SINGLETON_GROUP_LOOP_COUNT instead, if set)."
        ))
    var eventLoops: Int?

    /// The event loop threads `nanashi serve` runs: `--event-loops`, else the default.
    public var eventLoopCount: Int { eventLoops ?? EventLoops.defaultCount() }

    /// Checks what the settings do not hold: the event loops, set for the whole process before
    /// the settings are made.
    public func validate() throws {
        if let eventLoops, !(1...256).contains(eventLoops) {
            throw ValidationError("bad event loops \(eventLoops): use 1 to 256")
        }
    }

    /// The settings these options make, the defaults for the rest, checked.
    ///
    /// - Throws: `ServerSettings.Problem` named by the options, or a database source's problem.
    public func settings() throws -> ServerSettings {
        var settings = ServerSettings()
        (settings.host, settings.port, settings.httpPort, settings.httpHost) = (host, port, http, httpHost)
        (settings.metricsPort, settings.metricsHost) = (metricsPort, metricsHost)
        (settings.allowedOrigins, settings.publicHosts) = (allowOrigin, publicHost)
        settings.databasePath = try database.address(default: defaults.databasePath)
        settings.abandonGrace = .seconds(grace)
        settings.nodeLease = .seconds(nodeLease)
        settings.idleTimeout = .seconds(idleTimeout)
        (settings.messageBurst, settings.messageRate) = (messageBurst, messageRate)
        (settings.readBurstPerAddress, settings.readRatePerAddress) = (readBurst, readRate)
        (settings.maximumConnections, settings.maximumConnectionsPerAddress) = (maxConnections, maxPerAddress)
        (settings.connectionBurstPerAddress, settings.connectionRatePerAddress) = (
            connectionBurst, connectionRate
        )
        (settings.loginsPerMinute, settings.registrationsPerHour) = (loginsPerMinute, registrationsPerHour)
        settings.moveCommitDelay = .milliseconds(commitDelay)
        settings.backgroundAnalysesPerHour = backgroundAnalyses
        try settings.check()
        try settings.serveTLS(certificateChain: tlsCert, key: tlsKey)
        return settings
    }

    /// The level `--log-level` names.
    public func level() throws -> Logger.Level { try ServerSettings.logLevel(named: logLevel) }
}
