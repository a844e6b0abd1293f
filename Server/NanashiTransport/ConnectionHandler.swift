/// What a connection's reader hands to the server: a whole line, or word that a line was too
/// long and was thrown away.
package enum LineEvent: Sendable, Equatable {
    case line([UInt8])
    case tooLong
}

/// A line event as read, and when.
package struct ReceivedLine: Sendable, Equatable {
    package var event: LineEvent
    /// When the line was read from the socket: a move's time is taken from here, so neither
    /// the wait in line nor storing the move is charged to anyone's clock.
    package var readAt: ContinuousClock.Instant

    package init(event: LineEvent, readAt: ContinuousClock.Instant) {
        self.event = event
        self.readAt = readAt
    }
}

/// The server's side of one connection: it receives each line in turn, then hears of the close.
package protocol ConnectionHandler {
    func received(_ line: ReceivedLine) async
    func closed() async
}
