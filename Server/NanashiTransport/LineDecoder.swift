import NIOCore
import NanashiRuntime

/// Splits the byte stream into lines at `\n` (dropping a `\r` before it), never holding more
/// than `maximumLength` bytes of one line: a longer line is reported once and skipped.
package struct LineDecoder: ByteToMessageDecoder {
    package typealias InboundOut = ReceivedLine

    package let maximumLength: Int
    /// What stamps each line with the time it was read.
    package let clock: any ServerClock
    /// Inside a line already reported as too long, skipping up to its end.
    private var skipping = false

    package init(maximumLength: Int, clock: any ServerClock) {
        self.maximumLength = maximumLength
        self.clock = clock
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws
        -> DecodingState
    {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            // A longest line's `\r` may come a read before its `\n`.
            let longest = maximumLength + (view.last == UInt8(ascii: "\r") ? 1 : 0)
            if skipping {
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            } else if buffer.readableBytes > longest {
                skipping = true
                buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
                emit(.tooLong, context: context)
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
        emit(line.count > maximumLength ? .tooLong : .line(line), context: context)
        return .continue
    }

    private func emit(_ event: LineEvent, context: ChannelHandlerContext) {
        context.fireChannelRead(wrapInboundOut(ReceivedLine(event: event, readAt: clock.now)))
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool)
        throws
        -> DecodingState
    {
        // A message is only complete with its newline; bytes left at the end are dropped.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        return .needMoreData
    }
}
