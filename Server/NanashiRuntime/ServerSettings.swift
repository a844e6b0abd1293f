import Foundation
import NanashiCore
import NanashiProtocol

/// Everything `nanashi serve` can configure; the defaults are the production values.
public struct ServerSettings: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The TCP port; 0 lets the system choose one (see `Server.port`).
    public var port = 7878
    /// The HTTP port for the web pages and the WebSocket at `/ws`; `nil` serves no web (the
    /// default), 0 lets the system choose one (see `Server.httpPort`).
    public var httpPort: Int?
    /// The address the HTTP port listens on.
    public var httpHost = "127.0.0.1"
    /// The port of `/metrics` (Prometheus), apart from the public pages; `nil` serves none (the
    /// default), 0 lets the system choose one (see `Server.metricsPort`).
    public var metricsPort: Int?
    /// The address the metrics port listens on: loopback, for the operator's scraper only.
    public var metricsHost = "127.0.0.1"
    /// Origins (`https://example.org`) whose pages may open the WebSocket besides the server's
    /// own: a handshake whose `Origin` is neither the host it was sent to nor one of these is refused (403).
    public var allowedOrigins: [String] = []
    /// The names the server's pages are reached by (`example.org`, `example.org:8443`): with
    /// the hosts of `allowedOrigins`, the only `Host`s a browser's WebSocket is taken from besides
    /// `localhost` and addresses (against DNS rebinding).
    public var publicHosts: [String] = []
    /// The certificate chain and key to serve TLS with; `nil` serves plain TCP.
    public var tls: TLSFiles?
    /// Where the data is kept: a SQLite database file, created if missing, or a PostgreSQL
    /// database that several servers may share, `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=require]`.
    public var databasePath = "nanashi.sqlite"
    /// How long a write waits for another's lock on the SQLite database before it fails.
    public var databaseBusyTimeout = Duration.seconds(5)
    /// How long a batch of moves waits for more before it is committed to SQLite (`GroupCommit`)
    /// or stored in PostgreSQL by one statement (`StatementBatches`), and a batch of messages to
    /// other nodes before it is sent in one `NOTIFY` statement (`PostgresCluster`): a move is answered
    /// up to this much later (twice more when it crosses nodes), and the servers and the
    /// database spend far less CPU per move when moves come one at a time. Zero: each batch at
    /// once.
    public var moveCommitDelay = Duration.milliseconds(2)
    /// The scrypt cost for new password hashes. Lower it only in tests.
    public var passwordCost = ScryptCost.owasp
    /// How long a session token works after login.
    public var tokenLifetime = Duration.seconds(30 * 24 * 3600)
    /// How long a player may be away from a game in progress before losing it by `abandon`.
    public var abandonGrace = Duration.seconds(60)
    /// How often waiting seeks are looked at again (their accepted rating gap widens with time).
    public var pairingInterval = Duration.seconds(1)
    /// With several nodes, the most seeks one pairing pass locks and pairs in one transaction:
    /// a pass over thousands of seeks would hold them all while it creates the games.
    public var sharedPairingBatch = 128
    /// With several nodes, how many pairing passes one node runs at a time, each on a batch of
    /// its own: many seeks at once (the start of a big run) are paired side by side.
    public var sharedPairingPasses = 3
    /// With PostgreSQL: a node whose heartbeat is older than this is taken for dead, and the
    /// live nodes take its games over. Each node's heartbeat comes `heartbeatsPerLease` times as often.
    public var nodeLease = Duration.seconds(10)
    /// How many heartbeats a node beats per lease: five, so that a heartbeat's age (the beat's
    /// interval, plus the time its write takes) stays under a quarter of the lease.
    public static let heartbeatsPerLease = 5
    /// The time between two heartbeats of a node, and the most one heartbeat may take.
    public var heartbeat: Duration { nodeLease / Self.heartbeatsPerLease }
    /// The rating gap accepted at once between two seekers.
    public var pairingGap = 100.0
    /// How much the accepted gap widens per second of waiting.
    public var pairingWidening = 25.0
    /// The idle time that counts as one empty Glicko-2 rating period, widening the RD.
    public var ratingPeriod = Duration.seconds(24 * 3600)
    /// Failed logins to one name from one address allowed at once before further attempts from
    /// there are refused (a token bucket, refilled one every `failedLoginRefill`).
    public var failedLoginsBeforeThrottle = 5
    /// Failed logins from one address, over all names, allowed at once before its attempts are
    /// refused (a token bucket, refilled one every `failedLoginRefill`).
    public var failedLoginsPerAddressBeforeThrottle = 20
    /// How long a failed login counts: the buckets of failures per name and per address get a
    /// token back this often, so 5 failures for a name are forgotten in 15 minutes.
    public var failedLoginRefill = Duration.seconds(180)
    /// Password hashes computed at once; more requests wait in a short queue.
    public var concurrentHashes = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests that may wait for a hash; past this, `login` and `register` get `busy` at once.
    public var queuedHashes = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Decoy hashes (a `login` for a name that does not exist) per second over all addresses
    /// (a token bucket): past it, such a login waits as long as a hash takes, without one.
    public var decoyHashesPerSecond = max(1, Double(ProcessInfo.processInfo.activeProcessorCount) / 2)
    /// `login` requests one address may make per minute (a token bucket).
    public var loginsPerMinute = 10.0
    /// `register` requests one address may make per hour (a token bucket).
    public var registrationsPerHour = 5.0
    /// Open connections at most; more are refused at accept with `busy`.
    public var maximumConnections = 20_000
    /// Open connections from one address at most; more are refused at accept with `rate_limited`.
    public var maximumConnectionsPerAddress = 64
    /// New connections one address may open at once, on all ports together, before it is held to
    /// `connectionRatePerAddress` (a token bucket); past it a new connection is closed at once,
    /// without a word or a TLS handshake.
    public var connectionBurstPerAddress = 64
    /// New connections per second an address's budget refills by.
    public var connectionRatePerAddress = 16.0
    /// A connection that has not logged in this long after it opened is closed with `idle_timeout`.
    public var loginTimeout = Duration.seconds(30)
    /// A request on the HTTP port (its head and any body) not complete this long after its
    /// connection opened (or its last response ended) closes the connection; bytes dripping in
    /// do not put it off.
    public var requestTimeout = Duration.seconds(10)
    /// A game in which a side has not made its first move this long after the start is aborted.
    public var firstMoveLimit = Duration.seconds(30)
    /// The longest line accepted, in bytes.
    public var maximumLineLength = Wire.maximumLineLength
    /// The shortest and longest initial clock a seek may ask for, in seconds.
    public var initialClockRange = TimeControl.initialRange
    /// The largest increment a seek may ask for, in seconds.
    public var maximumIncrement = TimeControl.maximumIncrement
    /// A connection that sends no line for this long is closed (after an `idle_timeout` error).
    /// Clients ping every 30 s while otherwise quiet, so two minutes leaves room for three.
    public var idleTimeout = Duration.seconds(120)
    /// Messages a connection may send at once before its budget runs out (a token bucket over
    /// time: every line spends one).
    public var messageBurst = 50
    /// Messages per second the budget refills by.
    public var messageRate = 20.0
    /// Database reads (queries and page requests) one client address may ask for at once, over
    /// all its connections (`AddressReads`).
    public var readBurstPerAddress = 100
    /// Reads per second an address's budget refills by.
    public var readRatePerAddress = 20.0
    /// Bytes of replies waiting to be written to one connection before it counts as not reading
    /// and is closed. The largest reply (a leaderboard page of 100) is about 15 KB.
    public var maximumQueuedBytes = 256 * 1024
    /// Bytes waiting to be written to a connection past which a watched game's next line closes
    /// it: a watcher that does not read is dropped, and holds at most this much meanwhile.
    public var maximumWatcherQueuedBytes = 64 * 1024
    /// The kernel's send buffer of each game connection, in bytes; `nil` leaves the system's
    /// (which grows to megabytes). Small, replies that a client does not read wait in the
    /// server's own queue, whose limits then act at once (tests set it).
    public var socketSendBuffer: Int?
    /// Games one connection may watch at once.
    public var maximumWatchesPerConnection = 10
    /// How long a rematch offer stands before it lapses.
    public var rematchOfferLifetime = Duration.seconds(60)
    /// How long the `live` list is served from its last reading: many asking at once cost one
    /// walk over the games.
    public var liveListLifetime = Duration.seconds(1)
    /// How long a stopping server waits for a client to take its last replies before it closes
    /// the connection anyway.
    public var shutdownGrace = Duration.seconds(5)
    /// Searches of the built-in engine run at once (games against it and analyses), on threads
    /// of their own: one per core but one, at least one.
    public var engineThreads = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    /// Searches that may wait for an engine thread before a new game against the engine, or a
    /// new analysis, is refused with `busy` (games in progress always get their searches).
    public var engineQueue = 16
    /// Games against the engine in progress at once on this node, and from one client address;
    /// more are refused with `busy`.
    public var maximumEngineGames = 64
    public var maximumEngineGamesPerAddress = 2
    /// How many games against the engine (a `seek` with `ai`, or its rematch) one player may
    /// start at once, and then a minute (a token bucket); more are refused with `rate_limited`.
    public var engineSeekBurst = 5.0
    public var engineSeeksPerMinute = 6.0
    /// The depth of every search of an analysis, in plies.
    public var analysisDepth = 6
    /// Analyses computed at once; more wait their turn.
    public var concurrentAnalyses = 1
    /// Analyses that may wait for their turn; more are refused with `busy`.
    public var waitingAnalyses = 8
    /// `analyse` requests that need computing one address, and one account, may make per hour
    /// (token buckets); analyses already stored are served without counting.
    public var analysesPerHour = 20.0
    /// Rated games between people the server analyses of its own accord each hour, one at a
    /// time, the players with the highest accuracy first (`BackgroundAnalysis`); 0 analyses none.
    public var backgroundAnalysesPerHour = 6.0
    /// With SQLite, how often the server reads the moderators' log for accounts closed since it
    /// last looked (`nanashi admin close`), to end their sessions. (With PostgreSQL the nodes
    /// are told at once.)
    public var moderationCheckInterval = Duration.seconds(2)
    /// How often the idle and login timeouts are looked at; `nil` is a quarter of the shorter
    /// (at most 5 s).
    package var sweepInterval: Duration?
    /// The file descriptors connections may use; `nil` takes the process's limit less what is
    /// open at start and a reserve (`ConnectionCaps.descriptorBudget`). Tests make it small.
    package var descriptorBudget: Int?
    /// The one clock every timer and every reading of the time goes through; tests hand in one
    /// they move instead of waiting.
    public var clock: any ServerClock = SystemClock()

    public init() {}
}
