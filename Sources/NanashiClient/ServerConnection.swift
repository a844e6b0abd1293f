import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NanashiProtocol
import Synchronization

/// One TCP (or TLS) connection to a Nanashi server, speaking protocol v1: requests go out as lines, and
/// the server's messages come back in order through `events`, which ends with `.closed`.
///
/// Messages of a type this client does not know are skipped, so a newer server never breaks
/// it. When nothing has been sent for `keepAlive`, a `ping` goes out so that the server does not
/// take a player thinking about a move for a dead connection.
public final class ServerConnection: Sendable {
    /// The server's messages in order; finishes after `.closed`.
    public let events: AsyncStream<ServerEvent>
    /// The server this connection goes to.
    public let address: ServerAddress
    private let channel: any Channel
    private let keepAlive: Duration
    private let lastSent: Mutex<ContinuousClock.Instant>
    private let pinger = Mutex<Task<Void, Never>?>(nil)

    private init(
        address: ServerAddress, channel: any Channel, events: AsyncStream<ServerEvent>, keepAlive: Duration
    ) {
        self.address = address
        self.channel = channel
        self.events = events
        self.keepAlive = keepAlive
        lastSent = Mutex(.now)
    }

    /// Opens a connection to `address`, with TLS if the address says so.
    ///
    /// - Parameter keepAlive: how long the client may stay silent before it sends a `ping`.
    /// - Throws: `ConnectionError` when the server cannot be reached, or the certificates to
    ///   trust cannot be read.
    public static func connect(to address: ServerAddress, keepAlive: Duration = .seconds(30))
        async throws(ConnectionError) -> ServerConnection
    {
        let tls: NIOSSLContext?
        do {
            tls = try address.makeTLSContext()
        } catch {
            throw ConnectionError(
                address: address, reason: "cannot read the certificates to trust: \(error)")
        }
        let (events, continuation) = AsyncStream.makeStream(of: ServerEvent.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                address.makeTLSHandler(context: tls))
                        }
                        try channel.pipeline.syncOperations.addHandler(LineReader(continuation: continuation))
                    }
                }
                .connect(host: address.host, port: address.port).get()
        } catch {
            continuation.finish()
            throw ConnectionError(address: address, reason: Self.describe(error))
        }
        let connection = ServerConnection(
            address: address, channel: channel, events: events, keepAlive: keepAlive)
        connection.startPinging()
        return connection
    }

    /// Sends one message. Never waits; a message sent on a closed connection is lost (the
    /// `.closed` event says so).
    public func send(_ request: Request) {
        lastSent.withLock { $0 = .now }
        var buffer = channel.allocator.buffer(capacity: 128)
        buffer.writeString(Wire.line(request))
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
    }

    /// Closes the connection; `events` then ends with `.closed`.
    public func close() {
        pinger.withLock { $0?.cancel() }
        channel.close(promise: nil)
    }

    private func startPinging() {
        let task = Task { [weak self, keepAlive] in
            while !Task.isCancelled {
                try? await Task.sleep(for: min(keepAlive, .seconds(1)))
                guard let self, self.channel.isActive else { return }
                if ContinuousClock.now - self.lastSent.withLock({ $0 }) >= keepAlive {
                    self.send(Request(.ping))
                }
            }
        }
        pinger.withLock { $0 = task }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return describe(first.error)
        }
        if error is ChannelError { return "timed out" }
        return "\(error)"
    }

    deinit {
        pinger.withLock { $0?.cancel() }
    }
}

/// The server could not be reached.
public struct ConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    public let address: ServerAddress
    public let reason: String

    public init(address: ServerAddress, reason: String) {
        self.address = address
        self.reason = reason
    }

    public var description: String { "cannot connect to \(address): \(reason)" }
}

/// Splits the incoming bytes into lines and hands each message on; runs on the channel's loop.
private final class LineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// A line longer than this is not a message from a Nanashi server; it is skipped.
    private static let maximumLineLength = 1 << 20

    private let continuation: AsyncStream<ServerEvent>.Continuation
    private var pending: [UInt8] = []
    private var skipping = false

    init(continuation: AsyncStream<ServerEvent>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for byte in buffer.readableBytesView {
            guard byte == UInt8(ascii: "\n") else {
                if !skipping { pending.append(byte) }
                if pending.count > Self.maximumLineLength {
                    pending = []
                    skipping = true
                }
                continue
            }
            if !skipping {
                if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                deliver(pending)
            }
            pending.removeAll(keepingCapacity: true)
            skipping = false
        }
    }

    private func deliver(_ line: [UInt8]) {
        // A message this version does not know is skipped.
        guard let reply = try? Wire.reply(fromLine: line) else { return }
        if case .shutdown = reply.message {
            continuation.yield(.shutdown)
        } else {
            continuation.yield(.reply(reply))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.yield(.closed)
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
