import NIOCore

/// The whole pipeline of a connection refused at accept: it writes why (a protocol line, or an
/// HTTP 503), closes its side, throws away whatever the client sends, and closes the socket
/// once the client closes too or after `limit`, whichever comes first; with no message, it
/// closes the socket at once. No request is parsed and nothing waits on the client.
package final class RefusalHandler: StartsWhenActive, RemovableChannelHandler {
    package typealias InboundIn = ByteBuffer

    private let message: [UInt8]?
    private let limit: TimeAmount

    package init(message: [UInt8]?, limit: TimeAmount) {
        self.message = message
        self.limit = limit
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { context.close(promise: nil) }
    }

    private var refused = false

    package func start(_ context: ChannelHandlerContext) {
        guard !refused else { return }
        refused = true
        guard let message else { return context.close(promise: nil) }
        let cut = context.closeChannel(in: limit)
        context.channel.closeFuture.whenComplete { _ in cut.cancel() }
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: message)), promise: nil)
        context.close(mode: .output, promise: nil)
    }
}

@available(*, unavailable)
extension RefusalHandler: Sendable {}
