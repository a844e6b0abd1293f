import NIOCore
import Synchronization

/// Hands the lines read from one connection to its `ConnectionHandler`, one at a time and in
/// order, with no task of its own waiting on the socket.
///
/// A line read while no other is being handled starts a task on the spot, on the event loop
/// that read it (`Task.immediate`): the line is handled there until the handler first waits
/// (on a game, the database), with no hop through a queue. Lines read meanwhile wait here and
/// are taken by that same task, one after the other; once none waits, it ends.
///
/// While `highWatermark` lines wait, the connection's reader (`LineReader`) holds back reads
/// from the socket, until they are down to `lowWatermark`: a client that sends faster than its
/// lines are handled fills its own socket, not the server's memory.
///
/// Once no more lines can come (the client closed its side, the connection closed or failed),
/// the lines already read are handled, then the handler hears of the close, once. So does it
/// when the transport decided to close the connection (`Consumer.isFinished`): the lines still
/// waiting are then dropped. Either way nothing more is read from the socket: a client that
/// streams newlines at a closing connection does not keep its event loop splitting them.
package final class LineQueue: Sendable {
    package static let lowWatermark = 2
    package static let highWatermark = 10

    /// Who handles the lines, and what the transport keeps about the connection.
    ///
    /// `@unchecked Sendable`: the handler is used by one task at a time, never two at once
    /// (`State.busy`, changed only under the queue's lock, says whether a task holds it).
    package final class Consumer: @unchecked Sendable {
        package let handler: any ConnectionHandler
        /// Whether the transport is closing the connection: no more lines are handled.
        package let isFinished: @Sendable () -> Bool
        /// Told before each line is handled.
        package let heard: @Sendable () -> Void
        /// Told once the handler has heard of the close.
        package let afterClose: @Sendable () -> Void

        package init(
            handler: any ConnectionHandler, isFinished: @escaping @Sendable () -> Bool,
            heard: @escaping @Sendable () -> Void, afterClose: @escaping @Sendable () -> Void
        ) {
            self.handler = handler
            self.isFinished = isFinished
            self.heard = heard
            self.afterClose = afterClose
        }
    }

    private struct State {
        /// A ring, so that taking the first of thousands read at once costs no shifting of the rest.
        package var lines = CircularBuffer<ReceivedLine>()
        package var consumer: Consumer?
        /// A task is handling lines (or the close).
        package var busy = false
        /// No more lines will come.
        package var ended = false
        /// The handler has been told of the close (or is being told).
        package var closing = false
        /// The handler has heard of the close, and `afterClose` has run.
        package var closed = false
        /// The reader held back a read from the socket while too many lines waited.
        package var readHeld = false
        /// `serve`, waiting for the close.
        package var waiter: CheckedContinuation<Void, Never>?
    }

    private enum Step {
        case line(ReceivedLine, Consumer)
        case close(Consumer)
    }

    private let state = Mutex(State())
    /// Asks the socket for more once the lines waiting are few enough, after a read was held.
    private let readAgain: @Sendable () -> Void

    /// A queue whose held reads are made by `readAgain` (for a channel: `channel.read()`).
    package init(readAgain: @escaping @Sendable () -> Void) {
        self.readAgain = readAgain
    }

    /// Hands the lines read so far and from now on to `consumer`; returns once it has heard of
    /// the close.
    package func serve(_ consumer: Consumer) async {
        let step = state.withLock { state in
            state.consumer = consumer
            return state.busy ? nil : Self.take(&state)
        }
        if let step { start(step) }
        await withCheckedContinuation { waiter in
            let done = state.withLock { state in
                if !state.closed { state.waiter = waiter }
                return state.closed
            }
            if done { waiter.resume() }
        }
    }

    /// A line was read.
    package func received(_ line: ReceivedLine) {
        let step: Step? = state.withLock { state in
            guard !state.ended else { return nil }
            state.lines.append(line)
            return state.busy ? nil : Self.take(&state)
        }
        if let step { start(step) }
    }

    /// No more lines will come.
    package func end() {
        let step: Step? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return state.busy ? nil : Self.take(&state)
        }
        if let step { start(step) }
    }

    /// Whether a read from the socket may go ahead: not while `highWatermark` lines wait (the
    /// read is then made once they are down to `lowWatermark`), and never once no more lines are
    /// taken.
    package func mayRead() -> Bool {
        state.withLock { state in
            if state.ended { return false }
            guard state.lines.count >= Self.highWatermark else { return true }
            state.readHeld = true
            return false
        }
    }

    /// How many lines wait to be handled (for the tests).
    package var waiting: Int { state.withLock { $0.lines.count } }

    /// With no task running: what to do next, and whether a task now does it (`busy`).
    private static func take(_ state: inout State) -> Step? {
        guard let consumer = state.consumer, !state.closing else {
            state.busy = false
            return nil
        }
        if consumer.isFinished() {
            state.lines.removeAll()
            state.ended = true
        }
        if !state.lines.isEmpty {
            state.busy = true
            return .line(state.lines.removeFirst(), consumer)
        }
        if state.ended {
            state.busy = true
            state.closing = true
            return .close(consumer)
        }
        state.busy = false
        return nil
    }

    private func start(_ step: Step) {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *) {
            Task.immediate { await self.run(step) }
        } else {
            Task { await self.run(step) }
        }
    }

    /// Handles lines until none waits, or the close.
    private func run(_ first: Step) async {
        var step = first
        while true {
            switch step {
            case .line(let line, let consumer):
                consumer.heard()
                await consumer.handler.received(line)
            case .close(let consumer):
                await consumer.handler.closed()
                consumer.afterClose()
                let waiter = state.withLock { state in
                    state.closed = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
                return
            }
            let (next, resume) = state.withLock { state in
                let next = Self.take(&state)
                guard state.readHeld, state.lines.count <= Self.lowWatermark else { return (next, false) }
                state.readHeld = false
                return (next, true)
            }
            if resume { readAgain() }
            guard let next else { return }
            step = next
        }
    }
}

/// The last handler of a protocol connection's pipeline: gives each line (`ReceivedLine`, from
/// `LineDecoder` or `WebSocketLineCodec`) to the connection's `LineQueue`, tells it when no more
/// can come, and holds back reads from the socket while the queue is full.
package final class LineReader: ChannelDuplexHandler {
    package typealias InboundIn = ReceivedLine
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    private let queue: LineQueue

    package init(queue: LineQueue) {
        self.queue = queue
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        queue.received(unwrapInboundIn(data))
    }

    package func channelInactive(context: ChannelHandlerContext) {
        queue.end()
        context.fireChannelInactive()
    }

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { queue.end() }
        context.fireUserInboundEventTriggered(event)
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        queue.end()
        context.fireErrorCaught(error)
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        queue.end()
    }

    package func read(context: ChannelHandlerContext) {
        if queue.mayRead() { context.read() }
    }
}
