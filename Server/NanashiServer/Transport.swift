import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NanashiCore
import NanashiProtocol
import NanashiWeb
import Synchronization

/// The TCP (or TLS) listener, and the only code that touches SwiftNIO.
///
/// Each connection gets a line decoder with a maximum line length and a reader that hands lines
/// to its `ConnectionHandler` one at a time. What the server sends goes straight from the
/// `Outbox` to the channel, in order, on the channel's event loop: no task per connection
/// waits to write. Whatever goes wrong with one connection is caught here and closes that
/// connection only.
///
/// Nothing is shared between connections but the handlers' actors, so a slow client (one
/// byte at a time, or one that never reads) holds up only itself: its reader waits on its own
/// socket, and what it does not read piles up, bounded, in its own channel. Idle connections
/// cost no timer of their own: one sweep looks at them all.
///
/// Connections are counted as they are accepted: past the overall cap a new one gets `busy`,
/// past the cap for its address `rate_limited`, and either is closed at once.
///
/// With an HTTP port (`ServerSettings.httpPort`) a second listener serves the web pages and, at
/// `/ws`, the same protocol over a WebSocket (`WebSocketLineCodec`): those connections go through
/// the same registry, limits and sweep as TCP ones. Page requests count against the same caps
/// while their connection is open.
final class Transport: Sendable {
    /// Lines waiting to be written to one connection before it counts as not reading.
    static let maximumQueuedLines = 4096
    /// How long a closing connection may take to write what it has queued before it is cut.
    static let closingLimit = Duration.seconds(5)

    /// The port actually bound (useful when asked for port 0).
    let port: Int
    /// The HTTP port actually bound, if the server serves the web.
    let httpPort: Int?
    private let listener: NIOAsyncChannel<NIOAsyncChannel<ReceivedLine, Never>, Never>
    private let web: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?
    private let metrics: ServerMetrics
    /// For the page connections' request budget.
    private let settings: ServerSettings
    private let nextID = Atomic<Int>(0)
    private let maximumQueuedBytes: Int
    private let maximumWatcherQueuedBytes: Int
    private let maximumConnections: Int
    private let maximumPerAddress: Int
    /// The open connections, to sweep the idle ones and to close them all when the server
    /// stops, and how many come from each address.
    private let open = Mutex(Registry())
    /// Set once the server is stopping: connections accepted from then on are closed at once.
    private let stopping = Atomic<Bool>(false)
    /// The origin of `Link.lastHeard`.
    private let epoch = ContinuousClock.now

    private struct Registry {
        var links: [Int: Link] = [:]
        var perAddress: [String: Int] = [:]
        /// Open connections of web pages (not WebSockets), which hold no `Link`, by id.
        var pages: [Int: any Channel] = [:]

        /// Counts one connection from `address` out.
        mutating func release(_ address: String) {
            let left = (perAddress[address] ?? 1) - 1
            perAddress[address] = left > 0 ? left : nil
        }
    }

    /// A connection to the HTTP port, once its first request has been read: a WebSocket at `/ws`
    /// carrying the protocol's lines, or page requests.
    enum WebConnection: Sendable {
        case socket(NIOAsyncChannel<ReceivedLine, Never>)
        case pages(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// What the transport keeps about one open connection, and where its outbox delivers.
    private final class Link: Sendable {
        let id: Int
        let channel: any Channel
        /// The client's IP address, without the port.
        let address: String
        /// When the connection opened and when the last line came in, in milliseconds since the
        /// transport's epoch.
        let opened: Int64
        let lastHeard = Atomic<Int64>(0)
        /// Whether a player is logged in on it.
        let loggedIn = Atomic<Bool>(false)
        /// Whether it is a spectator (asked for `live` or watched a game), which needs no login.
        let watching = Atomic<Bool>(false)
        /// Bytes and lines handed to the channel and not yet written to the socket.
        let queuedBytes = Atomic<Int>(0)
        let queuedLines = Atomic<Int>(0)
        /// Set when the server decided to close the connection, so it is told only once.
        let closing = Atomic<Bool>(false)
        /// Set once the connection is closing: nothing more is written, and no more lines are read.
        private let finished = Atomic<Bool>(false)
        private let maximumQueuedBytes: Int
        private let maximumWatcherQueuedBytes: Int
        private let metrics: ServerMetrics
        private let logger: Logger

        init(
            id: Int, channel: any Channel, opened: Int64, maximumQueuedBytes: Int,
            maximumWatcherQueuedBytes: Int, metrics: ServerMetrics,
            logger: Logger
        ) {
            self.id = id
            self.channel = channel
            self.address = channel.remoteAddress?.ipAddress ?? "unknown"
            self.opened = opened
            self.maximumQueuedBytes = maximumQueuedBytes
            self.maximumWatcherQueuedBytes = maximumWatcherQueuedBytes
            self.metrics = metrics
            self.logger = logger
        }

        var outbox: Outbox {
            let metrics = self.metrics
            return Outbox(
                id: id, isOpen: { !self.isFinished && self.channel.isActive },
                sentError: { metrics.error($0.rawValue) }, sink: { self.deliver($0) })
        }

        /// Whether the connection is closing.
        var isFinished: Bool { finished.load(ordering: .relaxed) }

        /// Writes a line, or closes once the lines before are written. Every write and close
        /// goes through the event loop's queue, so they happen in the order they were sent
        /// whichever thread sent them.
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
                line = text
                limit = maximumQueuedBytes
            case .watchedLine(let text):
                line = text
                limit = min(maximumQueuedBytes, maximumWatcherQueuedBytes)
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
        func finish() {
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
        listener: NIOAsyncChannel<NIOAsyncChannel<ReceivedLine, Never>, Never>, port: Int,
        web: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?, settings: ServerSettings,
        metrics: ServerMetrics
    ) {
        self.listener = listener
        self.port = port
        self.web = web
        self.httpPort = web.map { $0.channel.localAddress?.port ?? settings.httpPort ?? 0 }
        self.metrics = metrics
        self.settings = settings
        self.maximumQueuedBytes = settings.maximumQueuedBytes
        self.maximumWatcherQueuedBytes = settings.maximumWatcherQueuedBytes
        self.maximumConnections = settings.maximumConnections
        self.maximumPerAddress = settings.maximumConnectionsPerAddress
    }

    /// Binds the listening socket on the settings' host and port, speaking TLS if the settings
    /// have its files. A client that does not speak TLS there fails the handshake and is closed.
    static func bind(_ settings: ServerSettings, metrics: ServerMetrics) async throws -> Transport {
        let maximumLineLength = settings.maximumLineLength
        let tls = try settings.tls?.serverContext()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: settings.host, port: settings.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineDecoder(maximumLength: maximumLineLength)))
                    return try NIOAsyncChannel<ReceivedLine, Never>(wrappingChannelSynchronously: channel)
                }
            }
        var web: NIOAsyncChannel<EventLoopFuture<WebConnection>, Never>?
        if let httpPort = settings.httpPort {
            web = try await bindWeb(settings, port: httpPort)
        }
        return Transport(
            listener: listener, port: listener.channel.localAddress?.port ?? settings.port, web: web,
            settings: settings, metrics: metrics)
    }

    /// Accepts connections until `close()`, serving each in its own task: on the protocol's
    /// port, and on the HTTP port if there is one (its pages answered by `site`).
    func run(
        logger: Logger, site: WebSite,
        makeHandler:
            @escaping @Sendable (_ outbox: Outbox, _ peer: String, _ address: String) -> any ConnectionHandler
    ) async {
        await withDiscardingTaskGroup { listeners in
            listeners.addTask {
                do {
                    try await self.listener.executeThenClose { connections in
                        try await withThrowingDiscardingTaskGroup { group in
                            for try await connection in connections {
                                let id = self.nextID.add(1, ordering: .relaxed).newValue
                                group.addTask {
                                    await self.serve(
                                        connection, id: id, isWebSocket: false, logger: logger,
                                        makeHandler: makeHandler)
                                }
                            }
                        }
                    }
                } catch {
                    logger.error("listener stopped: \(error)")
                }
            }
            guard let web else { return }
            listeners.addTask {
                do {
                    try await web.executeThenClose { connections in
                        try await withThrowingDiscardingTaskGroup { group in
                            for try await connection in connections {
                                group.addTask {
                                    await self.serveWeb(
                                        connection, site: site, logger: logger, makeHandler: makeHandler)
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

    /// Closes, with an `idle_timeout` error, every connection that has sent no line for
    /// `timeout`, or has not logged in within `loginTimeout` of opening, looking every
    /// `interval` until the task is cancelled.
    func sweepIdle(timeout: Duration, loginTimeout: Duration, every interval: Duration, logger: Logger) async
    {
        let limit = timeout.wholeMilliseconds
        let loginLimit = loginTimeout.wholeMilliseconds
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let now = (ContinuousClock.now - epoch).wholeMilliseconds
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

    /// Stops accepting connections, tells every open one that the server is stopping, and
    /// closes each once its queued lines are written, or after `grace` if its client does not
    /// take them.
    func close(grace: Duration) async {
        stopping.store(true, ordering: .relaxed)
        try? await listener.channel.close()
        try? await web?.channel.close()
        // Page connections kept alive between requests are closed at once.
        for channel in open.withLock({ Array($0.pages.values) }) { channel.close(promise: nil) }
        let links = open.withLock { Array($0.links.values) }
        for link in links where !link.closing.exchange(true, ordering: .relaxed) {
            link.outbox.send(.shutdown)
            link.outbox.close()
        }
        guard !links.isEmpty else { return }
        Task {
            try? await Task.sleep(for: grace)
            for link in links { link.channel.close(promise: nil) }
        }
    }

    private func serve(
        _ connection: NIOAsyncChannel<ReceivedLine, Never>, id: Int, isWebSocket: Bool, logger: Logger,
        makeHandler: @escaping @Sendable (Outbox, String, String) -> any ConnectionHandler
    ) async {
        let peer = connection.channel.remoteAddress?.description ?? "unknown"
        let opened = (ContinuousClock.now - epoch).wholeMilliseconds
        let link = Link(
            id: id, channel: connection.channel, opened: opened,
            maximumQueuedBytes: maximumQueuedBytes, maximumWatcherQueuedBytes: maximumWatcherQueuedBytes,
            metrics: metrics, logger: logger)
        let outbox = link.outbox
        link.lastHeard.store(opened, ordering: .relaxed)
        guard admit(link) else {
            logger.info("connection \(id) from \(peer) refused: too many connections")
            _ = try? await connection.executeThenClose { _ in
                link.finish()
                try? await connection.channel.closeFuture.get()
            }
            return
        }
        metrics.connection(webSocket: isWebSocket, change: 1)
        defer {
            metrics.connection(webSocket: isWebSocket, change: -1)
            open.withLock { registry in
                registry.links[id] = nil
                registry.release(link.address)
            }
        }
        // Accepted as the server stops: told at once (unless `close` already saw it).
        if stopping.load(ordering: .relaxed), !link.closing.exchange(true, ordering: .relaxed) {
            outbox.send(.shutdown)
            outbox.close()
        }
        do {
            try await connection.executeThenClose { inbound in
                let handler = makeHandler(outbox, peer, link.address)
                do {
                    // Ends when the client is done sending or the connection is closed.
                    for try await received in inbound {
                        // Closing (the client stopped reading, went idle or flooded, or the
                        // server is stopping): lines still buffered are not handled.
                        guard !link.isFinished else { break }
                        link.lastHeard.store(
                            (ContinuousClock.now - self.epoch).wholeMilliseconds, ordering: .relaxed)
                        await handler.received(received)
                    }
                } catch {
                    logger.debug("connection \(id) read failed: \(error)")
                }
                await handler.closed()
                // Write what is queued, then close.
                link.finish()
                try? await connection.channel.closeFuture.get()
            }
        } catch {
            logger.debug("connection \(id) closed with error: \(error)")
        }
    }

    /// Serves one connection to the HTTP port: a WebSocket as a protocol connection like any
    /// other, or page requests one after the other while the client keeps the connection open.
    private func serveWeb(
        _ connection: EventLoopFuture<WebConnection>, site: WebSite, logger: Logger,
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
        case .socket(let socket):
            let id = nextID.add(1, ordering: .relaxed).newValue
            await serve(socket, id: id, isWebSocket: true, logger: logger, makeHandler: makeHandler)
        case .pages(let pages):
            let id = nextID.add(1, ordering: .relaxed).newValue
            let address = pages.channel.remoteAddress?.ipAddress ?? "unknown"
            guard admitPages(pages.channel, id: id, from: address) else {
                await Self.refuse(pages, logger: logger)
                return
            }
            defer { releasePages(id: id, from: address) }
            await Self.answer(pages, site: site, settings: settings, logger: logger)
        }
    }

    /// Counts a connection for pages in against the same caps, or returns false.
    private func admitPages(_ channel: any Channel, id: Int, from address: String) -> Bool {
        open.withLock { registry in
            let count = registry.perAddress[address] ?? 0
            guard !stopping.load(ordering: .relaxed),
                registry.links.count + registry.pages.count < maximumConnections,
                count < maximumPerAddress
            else { return false }
            registry.pages[id] = channel
            registry.perAddress[address] = count + 1
            return true
        }
    }

    private func releasePages(id: Int, from address: String) {
        open.withLock { registry in
            registry.pages[id] = nil
            registry.release(address)
        }
    }

    /// Counts a new connection in, or tells it why not (`busy` when the server is full,
    /// `rate_limited` when its address has its share) and returns false.
    private func admit(_ link: Link) -> Bool {
        let refusal = open.withLock { registry -> ProtocolError? in
            if registry.links.count + registry.pages.count >= maximumConnections {
                return ProtocolError(.busy, "the server is full; try again in a minute")
            }
            let count = registry.perAddress[link.address] ?? 0
            if count >= maximumPerAddress {
                return ProtocolError(
                    .rateLimited, "too many connections from your address (at most \(maximumPerAddress))")
            }
            registry.links[link.id] = link
            registry.perAddress[link.address] = count + 1
            return nil
        }
        guard let refusal else { return true }
        link.closing.store(true, ordering: .relaxed)
        link.outbox.send(.error(refusal))
        return false
    }
}

/// Splits the byte stream into lines at `\n` (dropping a `\r` before it), never holding more
/// than `maximumLength` bytes of one line: a longer line is reported once and skipped.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ReceivedLine

    let maximumLength: Int
    /// Inside a line already reported as too long, skipping up to its end.
    private var skipping = false

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if skipping {
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            } else if buffer.readableBytes > maximumLength {
                skipping = true
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                emit(.tooLong, context: context)
            }
            return .needMoreData
        }
        let length = newline - view.startIndex
        if skipping {
            skipping = false
            buffer.moveReaderIndex(forwardBy: length + 1)
            return .continue
        }
        var line = buffer.readBytes(length: length) ?? []
        buffer.moveReaderIndex(forwardBy: 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        emit(line.count > maximumLength ? .tooLong : .line(line), context: context)
        return .continue
    }

    private func emit(_ event: LineEvent, context: ChannelHandlerContext) {
        context.fireChannelRead(wrapInboundOut(ReceivedLine(event: event)))
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        // A message is only complete with its newline; bytes left at the end are dropped.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
