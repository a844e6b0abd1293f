import Logging
import NIOCore
import NIOPosix
import Synchronization

/// The TCP listener, and the only code that touches SwiftNIO.
///
/// Each connection gets a line decoder with a maximum line length, a reader that hands lines to
/// its `ConnectionHandler` one at a time, and a writer draining its `Outbox`. Whatever goes
/// wrong with one connection is caught here and closes that connection only.
final class Transport: Sendable {
    /// Lines waiting to be written to one connection before it counts as not reading.
    static let maximumQueuedLines = 4096

    /// The port actually bound (useful when asked for port 0).
    let port: Int
    private let listener: NIOAsyncChannel<NIOAsyncChannel<LineEvent, ByteBuffer>, Never>
    private let nextID = Atomic<Int>(0)
    /// The outboxes of open connections, to close them all when the server stops.
    private let open = Mutex<[Int: Outbox]>([:])

    private init(listener: NIOAsyncChannel<NIOAsyncChannel<LineEvent, ByteBuffer>, Never>, port: Int) {
        self.listener = listener
        self.port = port
    }

    /// Binds the listening socket.
    static func bind(host: String, port: Int, maximumLineLength: Int) async throws -> Transport {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineDecoder(maximumLength: maximumLineLength)))
                    return try NIOAsyncChannel<LineEvent, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return Transport(listener: listener, port: listener.channel.localAddress?.port ?? port)
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

    /// Stops accepting connections and closes the open ones once their queued lines are written.
    func close() async {
        try? await listener.channel.close()
        for outbox in open.withLock({ Array($0.values) }) { outbox.close() }
    }

    private func serve(
        _ connection: NIOAsyncChannel<LineEvent, ByteBuffer>, id: Int, logger: Logger,
        makeHandler: @escaping @Sendable (Outbox, String) -> any ConnectionHandler
    ) async {
        let peer = connection.channel.remoteAddress?.description ?? "unknown"
        // A client that stops reading must not make the server hold its output forever: past
        // `maximumQueuedLines` unwritten lines the connection is closed.
        let (events, continuation) = AsyncStream.makeStream(
            of: Outbox.Event.self, bufferingPolicy: .bufferingOldest(Self.maximumQueuedLines))
        let channel = connection.channel
        let outbox = Outbox(id: id) { event in
            if case .dropped = continuation.yield(event) {
                logger.warning("connection \(id) closed: its client is not reading")
                channel.close(promise: nil)
            }
        }
        open.withLock { $0[id] = outbox }
        defer { open.withLock { $0[id] = nil } }
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
                        }
                        return .writer
                    }
                    group.addTask {
                        let handler = makeHandler(outbox, peer)
                        do {
                            for try await event in inbound { await handler.received(event) }
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
}

/// Splits the byte stream into lines at `\n` (dropping a `\r` before it), never holding more
/// than `maximumLength` bytes of one line: a longer line is reported once and skipped.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = LineEvent

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
                context.fireChannelRead(wrapInboundOut(.tooLong))
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
        context.fireChannelRead(wrapInboundOut(line.count > maximumLength ? .tooLong : .line(line)))
        return .continue
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
