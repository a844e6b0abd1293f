import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
import NanashiClient
import NanashiProtocol

/// Receives what the server sends on one connection; called on the connection's event loop.
protocol LineReceiver: AnyObject, Sendable {
    func received(_ reply: Reply)
    func receivedUnreadable(_ error: ProtocolError)
    func closed()
}

/// Client connections speaking protocol v1: the only code of the load generator that touches
/// SwiftNIO's bootstrap and pipeline.
enum LineConnection {
    /// Connects on `eventLoop`, from `source` if given, over TLS with `tls` if given; every
    /// line the server sends goes to `receiver` on that loop.
    static func connect(
        host: String, port: Int, from source: String? = nil, tls: ClientTLS? = nil,
        on eventLoop: any EventLoop,
        receiver: any LineReceiver
    ) -> EventLoopFuture<any Channel> {
        var bootstrap = ClientBootstrap(group: eventLoop)
        if let source {
            do {
                bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0))
            } catch {
                return eventLoop.makeFailedFuture(error)
            }
        }
        return
            bootstrap
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            tls.address.makeTLSHandler(context: tls.context))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(LineBasedFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(ReplyHandler(receiver: receiver))
                }
            }
            .connect(host: host, port: port)
    }

    /// Writes one request as a line.
    static func send(_ request: Request, on channel: any Channel) {
        let line = Wire.line(request)
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
    }
}

/// A TLS context made once for a run, and the address it is for.
struct ClientTLS: Sendable {
    let address: ServerAddress
    let context: NIOSSLContext

    /// The TLS of `address`, or `nil` if it is plain TCP.
    init?(_ address: ServerAddress) throws {
        guard let context = try address.makeTLSContext() else { return nil }
        self.address = address
        self.context = context
    }
}

/// Decodes each line into a `Reply` for the receiver.
private final class ReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let receiver: any LineReceiver

    init(receiver: any LineReceiver) { self.receiver = receiver }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        do {
            receiver.received(try Wire.reply(fromLine: buffer.readableBytesView))
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
