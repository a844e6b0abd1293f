import NanashiTransport
import Synchronization
import Testing

@testable import NanashiServer

@Suite struct LineQueueTests {
    /// Opened once; whoever waits on it (before or after) goes on then.
    private final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        func wait() async {
            await withCheckedContinuation { waiter in
                let open = state.withLock { state in
                    if !state.open { state.waiter = waiter }
                    return state.open
                }
                if open { waiter.resume() }
            }
        }

        func open() {
            let waiter = state.withLock { state in
                state.open = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Tells what it is given, in order, and holds the handling of one line until its gate opens.
    private final class Recorder: ConnectionHandler, Sendable {
        let events: AsyncStream<String>
        private let sink: AsyncStream<String>.Continuation
        private let held: String
        let gate = Gate()

        init(holding held: String) {
            (events, sink) = AsyncStream.makeStream(of: String.self)
            self.held = held
        }

        func received(_ line: ReceivedLine) async {
            let text =
                switch line.event {
                case .line(let bytes): String(decoding: bytes, as: UTF8.self)
                case .tooLong: "too long"
                }
            sink.yield("start \(text)")
            if text == held { await gate.wait() }
            sink.yield("end \(text)")
        }

        func closed() async {
            sink.yield("closed")
            sink.finish()
        }
    }

    private static func line(_ text: String) -> ReceivedLine {
        ReceivedLine(event: .line(Array(text.utf8)), readAt: .now)
    }

    /// The events up to the close, after those already taken.
    private static func rest(of events: inout AsyncStream<String>.Iterator) async -> [String] {
        var seen: [String] = []
        while let event = await events.next() { seen.append(event) }
        return seen
    }

    /// What the transport would keep: whether it closes the connection, and how often the
    /// close was seen through.
    private final class Link: Sendable {
        let finished = Atomic<Bool>(false)
        let closes = Atomic<Int>(0)
    }

    private static func consumer(_ handler: Recorder, link: Link) -> LineQueue.Consumer {
        LineQueue.Consumer(
            handler: handler, isFinished: { link.finished.load(ordering: .relaxed) }, heard: {},
            afterClose: { link.closes.add(1, ordering: .relaxed) })
    }

    /// Lines read before the handler is there, and while it handles one, wait and are handled
    /// one after the other, in order; once no more can come, the handler hears of the close
    /// after the last, once, and `serve` returns.
    @Test func linesAreHandledOneAtATimeInOrderThenTheClose() async {
        let queue = LineQueue(readAgain: {})
        let handler = Recorder(holding: "a")
        let link = Link()
        var events = handler.events.makeAsyncIterator()
        queue.received(Self.line("a"))
        let serving = Task { await queue.serve(Self.consumer(handler, link: link)) }
        #expect(await events.next() == "start a")
        queue.received(Self.line("b"))
        queue.received(ReceivedLine(event: .tooLong, readAt: .now))
        #expect(queue.waiting == 2)
        queue.end()
        queue.received(Self.line("after the end"))
        handler.gate.open()
        #expect(
            await Self.rest(of: &events) == [
                "end a", "start b", "end b", "start too long", "end too long", "closed",
            ])
        await serving.value
        #expect(link.closes.load(ordering: .relaxed) == 1)
        #expect(queue.waiting == 0)
    }

    /// While `highWatermark` lines wait, reads from the socket are held back; the held read is
    /// made once, when they are down to `lowWatermark`.
    @Test func aFullQueueHoldsReadsUntilItIsDownToTheLowWatermark() async {
        let reads = Atomic<Int>(0)
        let queue = LineQueue(readAgain: { reads.add(1, ordering: .relaxed) })
        let handler = Recorder(holding: "0")
        let link = Link()
        var events = handler.events.makeAsyncIterator()
        let serving = Task { await queue.serve(Self.consumer(handler, link: link)) }
        queue.received(Self.line("0"))
        #expect(await events.next() == "start 0")
        for number in 1..<LineQueue.highWatermark { queue.received(Self.line("\(number)")) }
        #expect(queue.mayRead())
        queue.received(Self.line("\(LineQueue.highWatermark)"))
        #expect(!queue.mayRead())
        #expect(!queue.mayRead())
        // Lines of a read already made still come in, and wait.
        queue.received(Self.line("\(LineQueue.highWatermark + 1)"))
        #expect(queue.waiting == LineQueue.highWatermark + 1)
        queue.end()
        handler.gate.open()
        let handled = await Self.rest(of: &events).filter { $0.hasPrefix("end ") }
        #expect(handled == (0...LineQueue.highWatermark + 1).map { "end \($0)" })
        await serving.value
        #expect(reads.load(ordering: .relaxed) == 1)
        // Ended: no more is read, however few lines wait.
        #expect(!queue.mayRead())
    }

    /// Once the transport closes the connection, the lines still waiting are dropped and the
    /// handler hears of the close; nothing more is read from the socket, so a client streaming
    /// newlines at the closing connection does not keep its event loop splitting them.
    @Test func aClosingConnectionDropsTheLinesWaiting() async {
        let queue = LineQueue(readAgain: {})
        let handler = Recorder(holding: "a")
        let link = Link()
        var events = handler.events.makeAsyncIterator()
        let serving = Task { await queue.serve(Self.consumer(handler, link: link)) }
        queue.received(Self.line("a"))
        #expect(await events.next() == "start a")
        queue.received(Self.line("b"))
        queue.received(Self.line("c"))
        link.finished.store(true, ordering: .relaxed)
        handler.gate.open()
        #expect(await Self.rest(of: &events) == ["end a", "closed"])
        await serving.value
        #expect(link.closes.load(ordering: .relaxed) == 1)
        queue.received(Self.line("d"))
        #expect(queue.waiting == 0)
        #expect(!queue.mayRead())
    }

    /// A connection that ends before the handler is there: the handler hears only of the close.
    @Test func aConnectionThatEndsAtOnceIsOnlyClosed() async {
        let queue = LineQueue(readAgain: {})
        let handler = Recorder(holding: "")
        let link = Link()
        var events = handler.events.makeAsyncIterator()
        queue.end()
        queue.end()
        await queue.serve(Self.consumer(handler, link: link))
        #expect(await Self.rest(of: &events) == ["closed"])
        #expect(link.closes.load(ordering: .relaxed) == 1)
    }
}
