/// What a connection's reader hands to the server: a whole line, or word that a line was too
/// long and was thrown away.
enum LineEvent: Sendable, Equatable {
    case line([UInt8])
    case tooLong
}

/// The server's side of one connection: it receives each line in turn, then hears of the close.
protocol ConnectionHandler {
    func received(_ event: LineEvent) async
    func closed() async
}
