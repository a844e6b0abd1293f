import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiWeb
import Synchronization

/// The TCP (or TLS) listener, and the only code that touches SwiftNIO.
///
/// Each connection gets a line decoder with a maximum line length and a reader that hands lines
/// to its `ConnectionHandler` one at a time, on the event loop that read them (`LineQueue`).
/// What the server sends goes straight from the `Outbox` to the channel, in order, on the
/// channel's event loop: no task per connection waits to write. Whatever goes wrong with one connection is caught here and closes that
/// connection only.
///
/// Nothing is shared between connections but the handlers' actors, so a slow client (one
/// byte at a time, or one that never reads) holds up only itself: its reader waits on its own
/// socket, and what it does not read piles up, bounded, in its own channel. Idle connections
/// cost no timer of their own: one sweep looks at them all.
///
/// Connections are counted as they are accepted (`ConnectionCaps`), on both ports and before a
/// byte is read: past the overall cap a new one gets `busy`, past the cap for its address
/// `rate_limited` (an HTTP 503 on the web port), and either is closed at once.
///
/// What the server writes to a connection is bounded: past `maximumQueuedBytes` not yet taken
/// by the socket (protocol lines, WebSocket pongs and close frames, pages alike) the server
/// stops reading from that client until it reads again (back-pressure), and protocol lines past
/// it close the connection.
///
/// With an HTTP port (`ServerSettings.httpPort`) a second listener serves the web pages and, at
/// `/ws`, the same protocol over a WebSocket (`WebSocketLineCodec`): those connections go through
/// the same registry, limits and sweep as TCP ones. Page requests count against the same caps
/// while their connection is open.
package final class Transport: Sendable {
    /// Lines waiting to be written to one connection before it counts as not reading.
    package static let maximumQueuedLines = 4096
    /// How long a closing connection may take to write what it has queued before it is cut.
    package static let closingLimit = Duration.seconds(5)

    /// The port actually bound (useful when asked for port 0).
    package let port: Int
    /// The HTTP port actually bound, if the server serves the web.
    package let httpPort: Int?
    /// The metrics port actually bound, if the server serves `/metrics`.
    package let metricsPort: Int?
    /// Connections counted in now, on both ports.
    package var openConnections: Int { caps.admittedCount }
    private let listener: NIOAsyncChannel<Accepted, Never>
    private let web: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?
    private let metricsListener: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?
    private let metrics: ServerMetrics
    /// The connections' limits, and the page connections' request budget.
    private let settings: ServerSettings
    private let nextID = Atomic<Int>(0)
    private let caps: ConnectionCaps
    /// The open connections, to sweep the idle ones and to close them all when the server
    /// stops, and how many come from each address.
    private let open = Mutex(Registry())
    /// Set once the server is stopping: connections accepted from then on are closed at once.
    private let stopping = Atomic<Bool>(false)
    /// The origin of `Link.lastHeard`.
    private let epoch: ContinuousClock.Instant
    /// The time connections are judged by.
    private let clock: any ServerClock

    private struct Registry {
        package var links: [Int: Link] = [:]
        /// Open connections of web pages (not WebSockets), which hold no `Link`, by id.
        package var pages: [Int: any Channel] = [:]
    }

    /// A connection to the protocol's port as accepted: counted in, or refused (its pipeline
    /// says why and closes it).
    package enum Accepted: Sendable {
        case admitted(any Channel, LineQueue)
        case refused
    }

    /// A connection to the HTTP port, once its first request has been read: a WebSocket at `/ws`
    /// carrying the protocol's lines, or page requests; or one refused at accept.
    package enum WebConnection: Sendable {
        case socket(any Channel, LineQueue)
        /// `declined`: its first request asked to upgrade, and was not.
        case pages(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, declined: DeclinedUpgrade)
        case refused
    }

    /// What the transport keeps about one open connection, and where its outbox delivers.
    private final class Link: Sendable {
        package let id: Int
        package let channel: any Channel
        /// The client's IP address, without the port.
        package let address: String
        /// When the connection opened and when the last line came in, in milliseconds since the
        /// transport's epoch.
        package let opened: Int64
        package let lastHeard = Atomic<Int64>(0)
        /// Whether a player is logged in on it.
        package let loggedIn = Atomic<Bool>(false)
        /// Whether it watches a game in progress, which spares it the login timeout meanwhile.
        package let watching = Atomic<Bool>(false)
        /// Bytes and lines handed to the channel and not yet written to the socket.
        package let queuedBytes = Atomic<Int>(0)
        package let queuedLines = Atomic<Int>(0)
        /// Set when the server decided to close the connection, so it is told only once.
        package let closing = Atomic<Bool>(false)
        /// Set once the connection is closing: nothing more is written, and no more lines are read.
        private let finished = Atomic<Bool>(false)
        /// Bytes that may wait for the socket when a line is added: `maximumQueuedBytes`, and
        /// for a watched game's line the smaller of it and `maximumWatcherQueuedBytes`.
        private let limits: (line: Int, watchedLine: Int)
        private let metrics: ServerMetrics
        private let logger: Logger

        package init(
            id: Int, channel: any Channel, opened: Int64, settings: ServerSettings, metrics: ServerMetrics,
            logger: Logger
        ) {
            self.id = id
            self.channel = channel
            self.address = ClientAddress.key(channel.remoteAddress)
            self.opened = opened
            limits = (
                settings.maximumQueuedBytes,
                min(settings.maximumQueuedBytes, settings.maximumWatcherQueuedBytes)
            )
            self.metrics = metrics
            self.logger = logger
        }

        package var outbox: Outbox {
            let metrics = self.metrics
            return Outbox(
                id: id, isOpen: { !self.isFinished && self.channel.isActive },
                sentError: { metrics.error($0.rawValue) }, sink: { self.deliver($0) })
        }

        /// Whether the connection is closing.
        package var isFinished: Bool { finished.load(ordering: .relaxed) }

        /// Writes a line, or closes once the lines before are written. Every write and close
        /// goes through the event loop's queue, so they happen in the order they were sent
        /// whichever thread sent them. Even a line sent on the loop itself waits there, to be
        /// written with the rest of the loop's tick: written at once instead, a move cost more
        /// server CPU under load (the notebook's load runs of 2026-12-07).
        ///
        /// A client that stops reading must not make the server hold its output forever: past
        /// `maximumQueuedBytes` (or `maximumQueuedLines`) not yet taken by the socket, the
        /// connection is closed at once. A watched game's line is held to the smaller
        /// `maximumWatcherQueuedBytes`, so that hundreds of watchers who stopped reading cost
        /// the server little, and the game that sends to them never waits for one.
        private func deliver(_ event: Outbox.Event) {
            guard !isFinished else { return }
            let line: String
            let limit: Int
            switch event {
            case .line(let text):
                (line, limit) = (text, limits.line)
            case .watchedLine(let text):
                (line, limit) = (text, limits.watchedLine)
            case .close:
                finish()
                return
            case .loggedIn(let value):
                loggedIn.store(value, ordering: .relaxed)
                return
            case .watching(let value):
                watching.store(value, ordering: .relaxed)
                return
            }
            let count = line.utf8.count + 1
            let bytes = queuedBytes.add(count, ordering: .relaxed).newValue
            let lines = queuedLines.add(1, ordering: .relaxed).newValue
            guard bytes <= limit, lines <= Transport.maximumQueuedLines else {
                if !closing.exchange(true, ordering: .relaxed) {
                    logger.warning("connection \(id) closed: its client is not reading")
                }
                finished.store(true, ordering: .relaxed)
                channel.close(promise: nil)
                return
            }
            let channel = self.channel
            channel.eventLoop.execute {
                var buffer = channel.allocator.buffer(capacity: count)
                buffer.writeString(line)
                buffer.writeInteger(UInt8(ascii: "\n"))
                channel.writeAndFlush(buffer).whenComplete { _ in
                    self.queuedBytes.subtract(count, ordering: .relaxed)
                    self.queuedLines.subtract(1, ordering: .relaxed)
                }
            }
        }

        /// Closes the connection once what is queued is written, or after `closingLimit` if
        /// its client does not take it.
        package func finish() {
            guard !finished.exchange(true, ordering: .relaxed) else { return }
            let channel = self.channel
            channel.eventLoop.execute {
                channel.close(mode: .output).whenComplete { _ in channel.close(promise: nil) }
                let cut = channel.eventLoop.scheduleTask(in: TimeAmount(Transport.closingLimit)) {
                    channel.close(promise: nil)
                }
                channel.closeFuture.whenComplete { _ in cut.cancel() }
            }
        }
    }

    private init(
        listener: NIOAsyncChannel<Accepted, Never>, port: Int,
        web: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?,
        metricsListener: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?, settings: ServerSettings,
        caps: ConnectionCaps, metrics: ServerMetrics
    ) {
        self.listener = listener
        self.port = port
        self.web = web
        self.httpPort = web.map { $0.channel.localAddress?.port ?? settings.httpPort ?? 0 }
        self.metricsListener = metricsListener
        self.metricsPort = metricsListener.map { $0.channel.localAddress?.port ?? settings.metricsPort ?? 0 }
        self.metrics = metrics
        self.settings = settings
        self.caps = caps
        self.clock = settings.clock
        self.epoch = settings.clock.now
    }

    /// Binds the listening socket on the settings' host and port, speaking TLS if the settings
    /// have its files. A client that does not speak TLS there fails the handshake and is closed.
    package static func bind(_ settings: ServerSettings, metrics: ServerMetrics) async throws -> Transport {
        let (maximumLineLength, clock) = (settings.maximumLineLength, settings.clock)
        let tls = try settings.tls?.serverContext()
        let descriptors =
            settings.descriptorBudget
            ?? ConnectionCaps.descriptorBudget(
                limit: DescriptorLimit.current ?? Int.max, open: DescriptorLimit.openCount ?? 0)
        let caps = ConnectionCaps(
            maximum: settings.maximumConnections, perAddress: settings.maximumConnectionsPerAddress,
            descriptors: descriptors)
        let arrivals = KeyedBuckets<String>(
            capacity: Double(settings.connectionBurstPerAddress),
            perSecond: settings.connectionRatePerAddress,
            clock: settings.clock)
        var bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let size = settings.socketSendBuffer {
            bootstrap = bootstrap.childChannelOption(
                .socketOption(.so_sndbuf), value: SocketOptionValue(size))
        }
        let listener =
            try await bootstrap
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: writeWaterMark(settings))
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelOption(.recvAllocator, value: readAllocator)
            .bind(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    let admitted = try admit(
                        channel, caps: caps, arrivals: arrivals, tls: tls, metrics: metrics
                    ) {
                        Array((Wire.line(Reply(.error($0), id: nil)) + "\n").utf8)
                    }
                    guard admitted else { return Accepted.refused }
                    try pipeline.addHandler(BackPressureHandler())
                    if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    try pipeline.addHandler(
                        ByteToMessageHandler(LineDecoder(maximumLength: maximumLineLength, clock: clock)))
                    let lines = LineQueue(readAgain: { channel.read() })
                    try pipeline.addHandler(LineReader(queue: lines))
                    return .admitted(channel, lines)
                }
            }
        var web: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?
        if let httpPort = settings.httpPort {
            web = try await bindWeb(
                settings, host: settings.httpHost, port: httpPort, webSockets: true, caps: caps,
                arrivals: arrivals, metrics: metrics)
        }
        var metricsListener: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?
        if let metricsPort = settings.metricsPort {
            metricsListener = try await bindWeb(
                settings, host: settings.metricsHost, port: metricsPort, webSockets: false, caps: caps,
                arrivals: arrivals, metrics: metrics)
        }
        return Transport(
            listener: listener, port: listener.channel.localAddress?.port ?? settings.port, web: web,
            metricsListener: metricsListener, settings: settings, caps: caps, metrics: metrics)
    }

    /// Each readable event reads once, at most 16 KiB: what one read splits into lines (a flood
    /// of newlines) is bounded before the connection's `LineQueue` is asked whether to read more.
    package static let readAllocator = FixedSizeRecvByteBufferAllocator(capacity: 16 * 1024)

    /// How long a connection refused at accept may take to read why before it is cut.
    package static let refusalLimit = TimeAmount.seconds(2)

    /// Counts a connection in at accept (`ConnectionCaps`), and returns whether it was admitted;
    /// if not, its pipeline is set up to tell it why (in the words of `explain`) and close, or
    /// to close at once when descriptors are short. A connection past its address's budget of
    /// new connections (`arrivals`) is closed at once, without a word or a TLS handshake, and
    /// not counted. Runs on the channel's event loop.
    package static func admit(
        _ channel: any Channel, caps: ConnectionCaps, arrivals: KeyedBuckets<String>, tls: NIOSSLContext?,
        metrics: ServerMetrics, explain: (ProtocolError) -> [UInt8]
    ) throws -> Bool {
        let address = ClientAddress.key(channel.remoteAddress)
        guard arrivals.take(address) else {
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(message: nil, limit: .zero))
            return false
        }
        let verdict = caps.admit(address)
        channel.closeFuture.whenComplete { _ in caps.release(address, verdict) }
        let pipeline = channel.pipeline.syncOperations
        switch verdict {
        case .admitted:
            return true
        case .refused(let refusal):
            metrics.error(refusal.code.rawValue)
            if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
            try pipeline.addHandler(RefusalHandler(message: explain(refusal), limit: refusalLimit))
        case .dropped:
            try pipeline.addHandler(RefusalHandler(message: nil, limit: .zero))
        }
        return false
    }

    /// The channel stops being writable (and so stops reading, `BackPressureHandler`) at
    /// `maximumQueuedBytes` waiting to be written, and reads again below half of it.
    package static func writeWaterMark(_ settings: ServerSettings)
        -> ChannelOptions.Types.WriteBufferWaterMark
    {
        let high = max(2, settings.maximumQueuedBytes)
        return .init(low: high / 2, high: high)
    }

    /// The task groups the connections of one port are spread over (`ShardedTaskGroup`): a few
    /// hundred connections each at 10,000.
    package static let taskGroups = 64

    /// Accepts connections until `close()`, serving each in its own task: on the protocol's
    /// port, on the HTTP port if there is one (its pages answered by `sites.pages`), and on the
    /// metrics port if there is one (`sites.metrics`).
    package func run(
        logger: Logger, sites: (pages: WebSite, metrics: WebSite), reads: AddressReads,
        makeHandler:
            @escaping @Sendable (_ outbox: Outbox, _ peer: String, _ address: String) -> any ConnectionHandler
    ) async {
        await withDiscardingTaskGroup { listeners in
            listeners.addTask {
                do {
                    try await self.listener.executeThenClose { connections in
                        try await ShardedTaskGroup.withGroups(count: Self.taskGroups) { group in
                            for try await accepted in connections {
                                guard case .admitted(let channel, let lines) = accepted else { continue }
                                let id = self.nextID.add(1, ordering: .relaxed).newValue
                                group.addTask(shard: id) {
                                    await self.serve(
                                        channel, lines: lines, id: id, isWebSocket: false, logger: logger,
                                        makeHandler: makeHandler)
                                }
                            }
                        }
                    }
                } catch {
                    logger.error("listener stopped: \(error)")
                }
            }
            // The pages spend their address's reads; the operator's metrics do not.
            for (listener, site, reads) in [(web, sites.pages, reads), (metricsListener, sites.metrics, nil)]
            {
                guard let listener else { continue }
                listeners.addTask {
                    do {
                        try await listener.executeThenClose { connections in
                            try await ShardedTaskGroup.withGroups(count: Self.taskGroups) { group in
                                var accepted = 0
                                for try await connection in connections {
                                    accepted &+= 1
                                    group.addTask(shard: accepted) {
                                        await self.serveWeb(
                                            connection, site: site, reads: reads, logger: logger,
                                            makeHandler: makeHandler)
                                    }
                                }
                            }
                        }
                    } catch {
                        logger.error("HTTP listener stopped: \(error)")
                    }
                }
            }
        }
    }

    /// Closes, with an `idle_timeout` error, every connection that has sent no line for
    /// `timeout`, or has not logged in within `loginTimeout` of opening, looking every
    /// `interval` until the task is cancelled.
    package func sweepIdle(
        timeout: Duration, loginTimeout: Duration, every interval: Duration, logger: Logger
    ) async {
        let limit = timeout.wholeMilliseconds
        let loginLimit = loginTimeout.wholeMilliseconds
        while !Task.isCancelled {
            try? await clock.sleep(for: interval)
            let now = (clock.now - epoch).wholeMilliseconds
            let idle = open.withLock { registry in
                registry.links.values.compactMap { link -> (Link, String)? in
                    if now - link.lastHeard.load(ordering: .relaxed) >= limit {
                        return (link, "no message for \(max(1, limit / 1000)) s")
                    }
                    if !link.loggedIn.load(ordering: .relaxed), !link.watching.load(ordering: .relaxed),
                        now - link.opened >= loginLimit
                    {
                        return (link, "not logged in after \(max(1, loginLimit / 1000)) s")
                    }
                    return nil
                }
            }
            for (link, reason) in idle where !link.closing.exchange(true, ordering: .relaxed) {
                logger.info("connection \(link.id) closed: \(reason)")
                link.outbox.send(.error(ProtocolError(.idleTimeout, "\(reason); closing")))
                link.outbox.close()
            }
        }
    }

    /// The first step of a stop: the protocol's and the web's listeners close, and a connection
    /// accepted meanwhile is told `shutdown` and closed; those open go on until `close(grace:)`.
    package func stopAccepting() async {
        stopping.store(true, ordering: .relaxed)
        try? await listener.channel.close()
        try? await web?.channel.close()
    }

    /// Stops accepting connections, tells every open one that the server is stopping, and
    /// closes each once its queued lines are written, or after `grace` if its client does not
    /// take them.
    package func close(grace: Duration) async {
        stopping.store(true, ordering: .relaxed)
        try? await listener.channel.close()
        try? await web?.channel.close()
        try? await metricsListener?.channel.close()
        // Page connections kept alive between requests are closed at once.
        for channel in open.withLock({ Array($0.pages.values) }) { channel.close(promise: nil) }
        let links = open.withLock { Array($0.links.values) }
        for link in links where !link.closing.exchange(true, ordering: .relaxed) {
            link.outbox.send(.shutdown)
            link.outbox.close()
        }
        guard !links.isEmpty else { return }
        let deadline = clock.now + grace
        Task { [clock] in
            try? await clock.sleep(until: deadline)
            for link in links { link.channel.close(promise: nil) }
        }
    }

    /// Closes the listeners and every connection at once, telling none of them: what its
    /// clients see when the process dies (for tests of a node that dies).
    package func abort() async {
        stopping.store(true, ordering: .relaxed)
        try? await listener.channel.close()
        try? await web?.channel.close()
        try? await metricsListener?.channel.close()
        for channel in open.withLock({ Array($0.pages.values) }) { channel.close(promise: nil) }
        for link in open.withLock({ Array($0.links.values) }) { link.channel.close(promise: nil) }
    }

    /// Serves one protocol connection (TCP, TLS or WebSocket) until it has closed: its lines go
    /// to a new `ConnectionHandler` through `lines`, which the connection's pipeline fills.
    private func serve(
        _ channel: any Channel, lines: LineQueue, id: Int, isWebSocket: Bool, logger: Logger,
        makeHandler: @escaping @Sendable (Outbox, String, String) -> any ConnectionHandler
    ) async {
        let peer = channel.remoteAddress?.description ?? "unknown"
        let opened = (clock.now - epoch).wholeMilliseconds
        let link = Link(
            id: id, channel: channel, opened: opened, settings: settings, metrics: metrics, logger: logger)
        let outbox = link.outbox
        link.lastHeard.store(opened, ordering: .relaxed)
        open.withLock { $0.links[id] = link }
        metrics.connection(webSocket: isWebSocket, change: 1)
        defer {
            metrics.connection(webSocket: isWebSocket, change: -1)
            open.withLock { $0.links[id] = nil }
        }
        // Accepted as the server stops: told at once (unless `close` already saw it).
        if stopping.load(ordering: .relaxed), !link.closing.exchange(true, ordering: .relaxed) {
            outbox.send(.shutdown)
            outbox.close()
        }
        let (clock, epoch) = (self.clock, self.epoch)
        // Closing (the client stopped reading, went idle or flooded, or the server is
        // stopping): lines still buffered are not handled. Once the handler has heard of the
        // close, what is queued is written, then the connection closes.
        await lines.serve(
            LineQueue.Consumer(
                handler: makeHandler(outbox, peer, link.address),
                isFinished: { link.isFinished },
                heard: { link.lastHeard.store((clock.now - epoch).wholeMilliseconds, ordering: .relaxed) },
                afterClose: { link.finish() }))
        try? await channel.closeFuture.get()
    }

    /// Serves one connection to the HTTP port: a WebSocket as a protocol connection like any
    /// other, or page requests one after the other while the client keeps the connection open.
    private func serveWeb(
        _ connection: EventLoopFuture<WebConnection>, site: WebSite, reads: AddressReads?, logger: Logger,
        makeHandler: @escaping @Sendable (Outbox, String, String) -> any ConnectionHandler
    ) async {
        let accepted: WebConnection
        do {
            accepted = try await connection.get()
        } catch {
            logger.debug("HTTP connection failed before its first request: \(error)")
            return
        }
        switch accepted {
        case .socket(let channel, let lines):
            let id = nextID.add(1, ordering: .relaxed).newValue
            await serve(
                channel, lines: lines, id: id, isWebSocket: true, logger: logger, makeHandler: makeHandler)
        case .pages(let pages, let declined):
            let id = nextID.add(1, ordering: .relaxed).newValue
            // Counted at accept; registered here only to be closed when the server stops.
            let admitted = open.withLock { registry in
                guard !stopping.load(ordering: .relaxed) else { return false }
                registry.pages[id] = pages.channel
                return true
            }
            guard admitted else {
                await Self.refuse(pages, logger: logger)
                return
            }
            defer { open.withLock { $0.pages[id] = nil } }
            await Self.answer(
                pages, site: site, settings: settings,
                reads: reads.map { ($0, ClientAddress.key(pages.channel.remoteAddress)) },
                declined: declined, logger: logger)
        case .refused:
            break
        }
    }
}
