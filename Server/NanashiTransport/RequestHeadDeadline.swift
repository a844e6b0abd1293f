import NIOCore
import NIOHTTP1

/// Closes an HTTP connection whose request head is not complete `limit` after the connection
/// opened or its last response ended: bytes dripping in do not put the deadline off, since only
/// a whole head stops it. An idle kept-alive connection is closed the same way. Once the
/// connection is upgraded to a WebSocket (a `101` response) the deadline is gone for good.
///
/// Sits right after the HTTP request decoder, so whatever it reads is a decoded request part (a
/// head first); it never unwraps what it reads, since after an upgrade raw bytes pass it. Its
/// timer is the event loop's, so a test moves an `EmbeddedEventLoop` instead of waiting.
package final class RequestHeadDeadline: StartsWhenActive, ChannelOutboundHandler {
    package typealias InboundIn = NIOAny
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
        // A request head is whole (or, upgraded, anything at all).
        disarm()
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
extension RequestHeadDeadline: Sendable {}
