import NIOCore

/// A handler that starts its work (a deadline, a reply) as soon as its channel is active: when
/// it is added to a channel that is active already, or when the channel becomes active.
package protocol StartsWhenActive: ChannelInboundHandler {
    /// Starts the work; may be called once the channel is active, and only then.
    func start(_ context: ChannelHandlerContext)
}

extension StartsWhenActive {
    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    package func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }
}

extension ChannelHandlerContext {
    /// Closes the channel `limit` from now on the event loop's clock (so a test moving an
    /// `EmbeddedEventLoop` sets it off), unless the returned task is cancelled first.
    package func closeChannel(in limit: TimeAmount) -> Scheduled<Void> {
        let channel = self.channel
        return eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }
}
