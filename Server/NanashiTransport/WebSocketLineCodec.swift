import NIOCore
import NIOWebSocket
import NanashiRuntime

/// Carries the protocol's lines over a WebSocket, one message per text frame: a frame in becomes
/// a `ReceivedLine` as the TCP line decoder would make it, and a line out (a `ByteBuffer` ending
/// in `\n`, as the transport writes it) becomes a text frame without its newline. So a browser
/// reaches the same `Connection`, with the same limits, as a terminal client.
///
/// - A text message in one frame longer than the protocol's line is thrown away and reported as
///   too long (`line_too_long`); the connection stays open. A fragmented message that grows past
///   the line closes the connection at once (1009), so fragments never pile up. A single frame
///   over `maximumFrameSize` never reaches here: the frame decoder closes the connection (1009).
/// - A frame the client did not mask, or a text or binary frame while a message in fragments is
///   still open, breaks RFC 6455: the connection is closed (1002).
/// - A binary frame is not part of the protocol: the connection is closed (1003).
/// - Pings are answered; a close frame is answered and the connection closed. Pongs go out
///   through the channel like every other write, so a client that pings without reading meets
///   the channel's back-pressure (the transport stops reading from it) like any other; they are
///   flushed once per read, not one system call each.
/// - Frames that end no line (pings, pongs, every fragment but a message's last) never reach
///   the connection's message budget, so they have their own: `controlBurst` at once,
///   `controlRate` a second after that. A client past it is closed (1008): a flood of them
///   cannot hold an event loop.
package final class WebSocketLineCodec: ChannelDuplexHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias InboundOut = ReceivedLine
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = WebSocketFrame

    /// The largest frame the decoder accepts: room for a line in any encoding of it, far below
    /// what could hurt the server.
    package static let maximumFrameSize = 16 * 1024

    /// Frames that end no line (pings, pongs, fragments before a message's last) a client may
    /// send at once...
    package static let controlBurst = 20.0
    /// ...and a second after that.
    package static let controlRate = 2.0

    private let maximumLength: Int
    /// What stamps each line with the time it was read.
    private let clock: any ServerClock
    /// The fragments of a text message so far, or `nil` between messages.
    private var fragments: ByteBuffer?
    private var closeSent = false
    /// What is left of the budget of frames that end no line.
    private var controlFrames: TokenBucket
    /// Pongs written since the last flush.
    private var pongsUnflushed = false

    package init(maximumLength: Int, clock: any ServerClock) {
        self.maximumLength = maximumLength
        self.clock = clock
        controlFrames = TokenBucket(capacity: Self.controlBurst, perSecond: Self.controlRate, now: clock.now)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !closeSent else { return }
        guard frame.maskKey != nil else { return close(context, code: .protocolError) }
        let endsNoLine = frame.opcode == .ping || frame.opcode == .pong || !frame.fin
        if endsNoLine, !controlFrames.take(now: clock.now) {
            return close(context, code: .policyViolation)
        }
        // A new message while one in fragments is open breaks RFC 6455 (5.4).
        if frame.opcode == .text || frame.opcode == .binary, fragments != nil {
            return close(context, code: .protocolError)
        }
        switch frame.opcode {
        case .text:
            take(frame, context: context)
        case .continuation:
            guard fragments != nil else { return close(context, code: .protocolError) }
            take(frame, context: context)
        case .binary:
            close(context, code: .unacceptableData)
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.write(wrapOutboundOut(pong), promise: nil)
            pongsUnflushed = true
        case .pong:
            break
        case .connectionClose:
            close(context, code: .normalClosure)
        default:
            close(context, code: .protocolError)
        }
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        if pongsUnflushed {
            pongsUnflushed = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    /// Adds a text frame or a fragment to the message, and hands on the message once whole.
    private func take(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        var data = frame.unmaskedData
        var message = fragments ?? context.channel.allocator.buffer(capacity: data.readableBytes)
        if message.readableBytes + data.readableBytes > maximumLength {
            fragments = nil
            // One frame: a line too long, as TCP reports it. Fragments: the client means to go on.
            guard frame.fin, frame.opcode == .text else { return close(context, code: .messageTooLarge) }
            context.fireChannelRead(wrapInboundOut(ReceivedLine(event: .tooLong, readAt: clock.now)))
            return
        }
        message.writeBuffer(&data)
        guard frame.fin else {
            fragments = message
            return
        }
        fragments = nil
        context.fireChannelRead(
            wrapInboundOut(ReceivedLine(event: .line(Array(message.readableBytesView)), readAt: clock.now)))
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var line = unwrapOutboundIn(data)
        if line.readableBytesView.last == UInt8(ascii: "\n") {
            line.moveWriterIndex(to: line.writerIndex - 1)
        }
        context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: line)), promise: promise)
    }

    /// The transport's closes (after the last reply, or at once) say goodbye with a close frame first.
    package func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if context.channel.isActive { sendCloseFrame(context, code: .normalClosure) }
        context.close(mode: mode, promise: promise)
    }

    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        sendCloseFrame(context, code: code)
        context.close(promise: nil)
    }

    /// The close frame, once per connection.
    private func sendCloseFrame(_ context: ChannelHandlerContext, code: WebSocketErrorCode) {
        guard !closeSent else { return }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        context.writeAndFlush(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
    }
}
