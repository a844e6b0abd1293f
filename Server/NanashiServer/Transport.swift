import Logging
import NIOCore
import NIOPosix
import NanashiProtocol
import Synchronization

/// The TCP listener, and the only code that touches SwiftNIO.
///
/// Each connection gets a line decoder with a maximum line length, a reader that hands lines to
/// its `ConnectionHandler` one at a time, and a writer draining its `Outbox`. Whatever goes
/// wrong with one connection is caught here and closes that connection only.
///
/// Nothing is shared between connections but the handlers' actors, so a slow client (one
/// byte at a time, or one that never reads) holds up only itself: its reader waits on its own
/// socket, and its writer waits on NIO's writability (the channel's 64 KiB high watermark).
/// Idle connections cost no timer of their own: one sweep looks at them all.
final class Transport: Sendable {
    /// Lines waiting to be written to one connection before it counts as not reading.
    static let maximumQueuedLines = 4096

    /// The port actually bound (useful when asked for port 0).
    let port: Int
    private let listener: NIOAsyncChannel<NIOAsyncChannel<ReceivedLine, ByteBuffer>, Never>
    private let nextID = Atomic<Int>(0)
    private let maximumQueuedBytes: Int
    /// The open connections, to sweep the idle ones and to close them all when the server stops.
    private let open = Mutex<[Int: Link]>([:])
    /// Set once the server is stopping: connections accepted from then on are closed at once.
    private let stopping = Atomic<Bool>(false)
    /// The origin of `Link.lastHeard`.
    private let epoch = ContinuousClock.now

    /// What the transport keeps about one open connection, and where its outbox delivers.
    private final class Link: Sendable {
        let id: Int
        let channel: any Channel
        /// When the last line came in, in milliseconds since the transport's epoch.
        let lastHeard = Atomic<Int64>(0)
        /// Bytes and lines queued for the writer and not yet written.
        let queuedBytes = Atomic<Int>(0)
        let queuedLines = Atomic<Int>(0)
        /// Set when the server decided to close the connection, so it is told only once.
        let closing = Atomic<Bool>(false)
        private let writer: AsyncStream<Outbox.Event>.Continuation
        private let maximumQueuedBytes: Int
        private let logger: Logger

        init(
            id: Int, channel: any Channel, writer: AsyncStream<Outbox.Event>.Continuation,
            maximumQueuedBytes: Int, logger: Logger
        ) {
            self.id = id
            self.channel = channel
            self.writer = writer
            self.maximumQueuedBytes = maximumQueuedBytes
            self.logger = logger
        }

        var outbox: Outbox { Outbox(id: id) { self.deliver($0) } }

        /// Queues an event for the writer. A client that stops reading must not make the server
        /// hold its output forever: past `maximumQueuedBytes` (or `maximumQueuedLines`) unwritten,
        /// the connection is closed. Its writer is then waiting on NIO's writability, so at most
        /// the channel's high watermark more is held.
        private func deliver(_ event: Outbox.Event) {
            if case .line(let line) = event {
                let bytes = queuedBytes.add(line.utf8.count + 1, ordering: .relaxed).newValue
                let lines = queuedLines.add(1, ordering: .relaxed).newValue
                guard bytes <= maximumQueuedBytes, lines <= Transport.maximumQueuedLines else {
                    if !closing.exchange(true, ordering: .relaxed) {
                        logger.warning("connection \(id) closed: its client is not reading")
                    }
                    writer.finish()
                    channel.close(promise: nil)
                    return
                }
            }
            writer.yield(event)
        }

        /// Takes a written line off the count.
        func wrote(_ line: String) {
            queuedBytes.subtract(line.utf8.count + 1, ordering: .relaxed)
            queuedLines.subtract(1, ordering: .relaxed)
        }
    }

    private init(
        listener: NIOAsyncChannel<NIOAsyncChannel<ReceivedLine, ByteBuffer>, Never>, port: Int,
        maximumQueuedBytes: Int
    ) {
        self.listener = listener
        self.port = port
        self.maximumQueuedBytes = maximumQueuedBytes
    }

    /// Binds the listening socket.
    static func bind(host: String, port: Int, maximumLineLength: Int, maximumQueuedBytes: Int) async throws
        -> Transport
    {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineDecoder(maximumLength: maximumLineLength)))
                    return try NIOAsyncChannel<ReceivedLine, ByteBuffer>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return Transport(
            listener: listener, port: listener.channel.localAddress?.port ?? port,
            maximumQueuedBytes: maximumQueuedBytes)
    }

    /// Accepts connections until `close()`, serving each in its own task.
    func run(
        logger: Logger,
        makeHandler: @escaping @Sendable (_ outbox: Outbox, _ peer: String) -> any ConnectionHandler
    ) async {
        do {
            try await listener.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        let id = nextID.add(1, ordering: .relaxed).newValue
                        group.addTask {
                            await self.serve(connection, id: id, logger: logger, makeHandler: makeHandler)
                        }
                    }
                }
            }
        } catch {
            logger.error("listener stopped: \(error)")
        }
    }

    /// Closes, with an `idle_timeout` error, every connection that has sent no line for
    /// `timeout`, looking every `interval` until the task is cancelled.
    func sweepIdle(timeout: Duration, every interval: Duration, logger: Logger) async {
        let limit = Self.milliseconds(timeout)
        let seconds = max(1, limit / 1000)
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let now = Self.milliseconds(.now - epoch)
            let idle = open.withLock { links in
                links.values.filter { now - $0.lastHeard.load(ordering: .relaxed) >= limit }
            }
            for link in idle where !link.closing.exchange(true, ordering: .relaxed) {
                logger.info("connection \(link.id) closed: idle for \(seconds) s")
                link.outbox.send(
                    .error(ProtocolError(.idleTimeout, "no message for \(seconds) s; closing")))
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
        let links = open.withLock { Array($0.values) }
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
        _ connection: NIOAsyncChannel<ReceivedLine, ByteBuffer>, id: Int, logger: Logger,
        makeHandler: @escaping @Sendable (Outbox, String) -> any ConnectionHandler
    ) async {
        let peer = connection.channel.remoteAddress?.description ?? "unknown"
        let (events, continuation) = AsyncStream.makeStream(of: Outbox.Event.self)
        let link = Link(
            id: id, channel: connection.channel, writer: continuation, maximumQueuedBytes: maximumQueuedBytes,
            logger: logger)
        let outbox = link.outbox
        link.lastHeard.store(Self.milliseconds(.now - epoch), ordering: .relaxed)
        open.withLock { $0[id] = link }
        defer { open.withLock { $0[id] = nil } }
        // Accepted as the server stops: told at once (unless `close` already saw it).
        if stopping.load(ordering: .relaxed), !link.closing.exchange(true, ordering: .relaxed) {
            outbox.send(.shutdown)
            outbox.close()
        }
        enum Finished { case reader, writer }
        do {
            try await connection.executeThenClose { inbound, outbound in
                await withTaskGroup(of: Finished.self) { group in
                    group.addTask {
                        for await event in events {
                            guard case .line(let line) = event else { break }
                            var buffer = ByteBuffer()
                            buffer.reserveCapacity(line.utf8.count + 1)
                            buffer.writeString(line)
                            buffer.writeInteger(UInt8(ascii: "\n"))
                            do { try await outbound.write(buffer) } catch { break }
                            link.wrote(line)
                        }
                        return .writer
                    }
                    group.addTask {
                        let handler = makeHandler(outbox, peer)
                        do {
                            for try await received in inbound {
                                link.lastHeard.store(Self.milliseconds(.now - self.epoch), ordering: .relaxed)
                                await handler.received(received.event, pipelined: received.pipelined)
                            }
                        } catch {
                            logger.debug("connection \(id) read failed: \(error)")
                        }
                        await handler.closed()
                        return .reader
                    }
                    if await group.next() == .writer {
                        // The server closed the connection: stop reading.
                        group.cancelAll()
                    } else {
                        // The client is done sending: write what is queued, then close.
                        continuation.finish()
                    }
                    await group.waitForAll()
                }
            }
        } catch {
            logger.debug("connection \(id) closed with error: \(error)")
        }
        continuation.finish()
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

/// Splits the byte stream into lines at `\n` (dropping a `\r` before it), never holding more
/// than `maximumLength` bytes of one line: a longer line is reported once and skipped.
///
/// Each line is marked pipelined when bytes after the previous line were already waiting as
/// that one was taken: the client sent it before it could have had a reply.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ReceivedLine

    let maximumLength: Int
    /// Inside a line already reported as too long, skipping up to its end.
    private var skipping = false
    /// Whether bytes were waiting right after the last line taken.
    private var followed = false

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
                emit(.tooLong, context: context, buffer: buffer)
            }
            return .needMoreData
        }
        let length = newline - view.startIndex
        if skipping {
            skipping = false
            buffer.moveReaderIndex(forwardBy: length + 1)
            followed = buffer.readableBytes > 0
            return .continue
        }
        var line = buffer.readBytes(length: length) ?? []
        buffer.moveReaderIndex(forwardBy: 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        emit(line.count > maximumLength ? .tooLong : .line(line), context: context, buffer: buffer)
        return .continue
    }

    private mutating func emit(_ event: LineEvent, context: ChannelHandlerContext, buffer: ByteBuffer) {
        let pipelined = followed
        followed = buffer.readableBytes > 0
        context.fireChannelRead(wrapInboundOut(ReceivedLine(event: event, pipelined: pipelined)))
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
