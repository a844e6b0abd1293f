import NIOCore
import NIOHTTP1

/// Closes an HTTP connection whose request (its head and any body) is not complete `limit`
/// after the connection opened or its last response ended: bytes dripping in do not put the
/// deadline off, since only a request's end stops it. An idle kept-alive connection is closed
/// the same way. Once the connection is upgraded to a WebSocket (a `101` response) the deadline
/// is gone for good.
///
/// Sits right after the HTTP request decoder, so that what it reads before an upgrade is a
/// decoded request part; after one, raw bytes pass it unlooked at. Its timer is the event
/// loop's, so a test moves an `EmbeddedEventLoop` instead of waiting.
package final class RequestDeadline: StartsWhenActive, ChannelOutboundHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundIn = HTTPServerResponsePart
    package typealias OutboundOut = HTTPServerResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Set by the `101` response: from then on frames pass, untouched and unlooked at.
    private var upgraded = false

    package init(limit: TimeAmount) {
        self.limit = limit
    }

    package func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Before an upgrade, only the decoder's request parts come here.
        if !upgraded, case .end = unwrapInboundIn(data) { disarm() }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !upgraded else { return context.write(data, promise: promise) }
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            upgraded = true
            disarm()
        case .end:
            // The response is done: the next request's head has `limit` from now.
            start(context)
        default:
            break
        }
        context.write(data, promise: promise)
    }

    /// Arms the deadline: `limit` from now (a running one is put off), unless upgraded.
    package func start(_ context: ChannelHandlerContext) {
        disarm()
        guard !upgraded else { return }
        deadline = context.closeChannel(in: limit)
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

@available(*, unavailable)
extension RequestDeadline: Sendable {}
