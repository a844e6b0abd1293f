import Foundation

/// The one stream of events into an `OnlineSession`, whatever they come from: the connection's
/// messages, the outcome of a connection attempt, lines typed at the terminal, the clock's
/// ticks and the wait before reconnecting. The runner takes them out one at a time, so the
/// session sees one event at a time.
///
/// Only the newest connection is heard: what an older one still says (its last messages, its
/// `.closed`) is dropped, so a connection replaced after a drop cannot disturb the new one.
///
/// A server worked if it answered the session (a `welcome`), not merely if it took the TCP
/// connection: one that accepts and closes (full, rate limited, failing TLS) is not tried
/// first again, the next one is.
public final class SessionInbox {
    private enum Input: Sendable {
        case event(OnlineSession.Event)
        /// A message or the end of the connection attached as number `generation`.
        case server(generation: Int, ServerEvent)
        case opened(ServerConnection)
    }

    /// The connection attached last, once one is open.
    public private(set) var connection: ServerConnection?
    /// The connection attached last has sent a `welcome`.
    private var welcomed = false
    private let sink: AsyncStream<Input>.Continuation
    private var inputs: AsyncStream<Input>.Iterator
    private var generation = 0

    public init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        sink = continuation
        inputs = stream.makeAsyncIterator()
    }

    /// The next event; a connection opened by `connect(to:)` is attached first and reported as
    /// `.connected`. `nil` once the inbox is finished.
    public func next() async -> OnlineSession.Event? {
        while let input = await inputs.next() {
            switch input {
            case .event(let event):
                return event
            case .server(let from, let event):
                guard from == generation else { break }
                if case .reply(let reply) = event, case .welcome = reply.message { welcomed = true }
                return .server(event)
            case .opened(let new):
                connection = new
                welcomed = false
                listen(to: new.events)
                return .connected
            }
        }
        return nil
    }

    /// Posts an event, now or after `delay`.
    public func post(_ event: OnlineSession.Event, after delay: Duration? = nil) {
        let sink = sink
        guard let delay else {
            sink.yield(.event(event))
            return
        }
        Task {
            try? await Task.sleep(for: delay)
            sink.yield(.event(event))
        }
    }

    /// Opens a connection to the first of `servers` that answers, on a task of its own, trying
    /// first the one the last connection went to if it welcomed the session, else the one after
    /// it: `.connected` follows, or `.unreachable`. The connection pings after `keepAlive`
    /// without a message sent.
    public func connect(to servers: ServerList, keepAlive: Duration = .seconds(30)) {
        let sink = sink
        let first = connection.flatMap { welcomed ? $0.address : servers.server(after: $0.address) }
        Task {
            do throws(ConnectionError) {
                sink.yield(
                    .opened(
                        try await ServerConnection.connect(to: servers, from: first, keepAlive: keepAlive)))
            } catch {
                sink.yield(.event(.unreachable(error.reason)))
            }
        }
    }

    /// Hears `events` from now on, and no older connection's.
    func listen(to events: AsyncStream<ServerEvent>) {
        generation += 1
        let generation = generation
        let sink = sink
        Task {
            for await event in events { sink.yield(.server(generation: generation, event)) }
        }
    }

    /// Posts each line `readLine` returns, read on a thread of its own (so a move can arrive
    /// while the player types), then `.inputEnded`.
    public func readLines(with readLine: @escaping @Sendable () -> String?) {
        let sink = sink
        Thread.detachNewThread {
            while let line = readLine() { sink.yield(.event(.line(line))) }
            sink.yield(.event(.inputEnded))
        }
    }

    /// Posts `.tick` every `interval`, for the clocks on a terminal.
    public func tick(every interval: Duration) {
        let sink = sink
        Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                sink.yield(.event(.tick))
            }
        }
    }

    /// Ends the stream: `next()` returns what is left, then `nil`.
    public func finish() {
        sink.finish()
    }
}
