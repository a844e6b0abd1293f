import NanashiProtocol
import NanashiTerminal

/// What a watcher sees, as text: the heading, the board after each move with the clock line
/// under it, and the end. It owns no terminal: it returns what to show.
public struct WatchScreen {
    /// One thing to show, in order.
    public enum Output: Hashable, Sendable {
        /// Text as it is.
        case write(String)
        /// One line.
        case say(String)
        /// The transient status line (a terminal only), kept for the clocks.
        case status(String)
    }

    /// The server sent a position this client cannot read.
    public struct UnreadablePosition: Error, CustomStringConvertible {
        public let description: String
    }

    private let renderer: BoardRenderer
    private let isInteractive: Bool
    /// The game watched, once the server sent it.
    public private(set) var table: WatchTable?

    /// - Parameter isInteractive: on a terminal the clock line is a status line that ticks;
    ///   elsewhere it is written once under each board.
    public init(color: Bool, isInteractive: Bool) {
        renderer = BoardRenderer(color: color)
        self.isInteractive = isInteractive
    }

    /// The game is over: its end was shown.
    public var isOver: Bool { table?.end != nil }

    /// What a message of the watched game shows.
    public mutating func receive(_ message: ServerMessage, at now: ContinuousClock.Instant)
        throws(UnreadablePosition) -> [Output]
    {
        switch message {
        case .watching(let watched):
            do {
                table = try WatchTable(watched, now: now)
            } catch {
                throw UnreadablePosition(
                    description: "the server sent a position this client cannot read: \(error)")
            }
            return [.say(table!.heading)] + board(at: now)
        case .moved(let moved):
            guard table?.apply(moved, now: now) == true else { return [] }
            return board(at: now)
        case .watchedEnd(let end):
            guard var table, table.id == end.game else { return [] }
            table.finish(end, now: now)
            self.table = table
            return [.say(table.clockLine(at: now)), .write(table.endText ?? "")]
        default:
            return []
        }
    }

    /// The clock line at `now`, until the end.
    public func tick(at now: ContinuousClock.Instant) -> [Output] {
        guard let table, table.end == nil else { return [] }
        return [.status(table.clockLine(at: now))]
    }

    private func board(at now: ContinuousClock.Instant) -> [Output] {
        guard let table else { return [] }
        let clocks = table.clockLine(at: now)
        return [
            .write(
                "\n" + renderer.render(table.position, lastMove: table.game.lastMove, labels: table.labels)),
            isInteractive ? .status(clocks) : .say(clocks),
        ]
    }
}

/// What the watch loop waits for: the server's next event, or the time to redraw the clocks.
public enum WatchInput: Hashable, Sendable {
    case event(ServerEvent)
    case tick

    /// The connection's events with a tick every `interval` between them; ends with the events.
    public static func merging(_ events: AsyncStream<ServerEvent>, tick interval: Duration) -> AsyncStream<
        WatchInput
    > {
        AsyncStream { continuation in
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    continuation.yield(.tick)
                }
            }
            let forwarder = Task {
                for await event in events { continuation.yield(.event(event)) }
                ticker.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                ticker.cancel()
                forwarder.cancel()
            }
        }
    }
}
