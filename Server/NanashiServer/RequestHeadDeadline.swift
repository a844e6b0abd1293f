import NIOCore
import NIOHTTP1

/// Closes an HTTP connection whose request head is not complete `limit` after the connection
/// opened or its last response ended: bytes dripping in do not put the deadline off, since only
/// a whole head stops it. An idle kept-alive connection is closed the same way. Once the
/// connection is upgraded to a WebSocket (a `101` response) the handler takes itself out.
///
/// Sits right after the HTTP request decoder, so it sees whole request heads and the response
/// parts on their way out. Its timer is the event loop's, so a test moves an `EmbeddedEventLoop`
/// instead of waiting.
final class RequestHeadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Request heads read whose response has not ended yet.
    private var outstanding = 0

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            outstanding += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            context.write(data, promise: promise)
            disarm()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .end:
            context.write(data, promise: promise)
            outstanding = max(0, outstanding - 1)
            if outstanding == 0 { arm(context) }
        default:
            context.write(data, promise: promise)
        }
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestHeadDeadline: Sendable {}
