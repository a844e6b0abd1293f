import NIOCore
import NIOPosix
import NIOSSL
import NanashiProtocol

/// Receives what the server sends on one line connection; called on the connection's event loop.
package protocol LineReceiver: AnyObject, Sendable {
    /// One line, read as a message of the server.
    func received(_ reply: Reply)
    /// One line that is not a message this client knows.
    func receivedUnreadable(_ error: ProtocolError)
    /// The connection closed.
    func closed()
}

/// Connections to a server speaking protocol v1, one line a message: the one place where the
/// terminal client and the load generator's bots touch SwiftNIO's bootstrap and pipeline.
package enum LineConnection {
    /// Connects to `server` on `group`, from the local address `source` if given; every line the
    /// server sends goes to `receiver` on the connection's event loop.
    package static func connect(
        to server: LineServer, from source: String? = nil, on group: any EventLoopGroup,
        receiver: any LineReceiver
    ) -> EventLoopFuture<any Channel> {
        var bootstrap = ClientBootstrap(group: group)
        if let source {
            do {
                bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0))
            } catch {
                return group.next().makeFailedFuture(error)
            }
        }
        return
            bootstrap
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls = server.tls {
                        try channel.pipeline.syncOperations.addHandler(
                            server.address.makeTLSHandler(context: tls))
                    }
                    try channel.pipeline.syncOperations.addHandler(LineReader(receiver: receiver))
                }
            }
            .connect(host: server.address.host, port: server.address.port)
    }

    /// Writes one request as a line. Never waits; a request sent on a closed connection is lost.
    package static func send(_ request: Request, on channel: any Channel) {
        let line = Wire.line(request)
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
    }
}

/// A server's address with its TLS context, made once and shared by all its connections
/// (loading the trust store is the slow part).
package struct LineServer: Sendable {
    package let address: ServerAddress
    /// `nil` for plain TCP.
    package let tls: NIOSSLContext?

    /// - Throws: when the certificates to trust cannot be read.
    package init(_ address: ServerAddress) throws {
        self.address = address
        tls = try address.makeTLSContext()
    }
}

/// Splits the incoming bytes into lines (a `\r` before the `\n` dropped) and hands each on as a
/// reply; runs on the channel's loop.
private final class LineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// A line longer than this is not a message from a Nanashi server; it is skipped.
    private static let maximumLineLength = 1 << 20

    private let receiver: any LineReceiver
    private var pending: [UInt8] = []
    private var skipping = false

    init(receiver: any LineReceiver) { self.receiver = receiver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data).readableBytesView[...]
        while !bytes.isEmpty {
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
                take(bytes)
                return
            }
            take(bytes[..<newline])
            if !skipping {
                if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                deliver()
            }
            pending.removeAll(keepingCapacity: true)
            skipping = false
            bytes = bytes[bytes.index(after: newline)...]
        }
    }

    private func take(_ bytes: ByteBufferView.SubSequence) {
        guard !skipping else { return }
        pending.append(contentsOf: bytes)
        if pending.count > Self.maximumLineLength {
            pending = []
            skipping = true
        }
    }

    private func deliver() {
        do {
            receiver.received(try Wire.reply(fromLine: ServerText.withoutControlCharacters(pending)))
        } catch {
            receiver.receivedUnreadable(error)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        receiver.closed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
