import NanashiClient
import NanashiCore
import NanashiProtocol
import NanashiTerminal
import Testing

// The watcher's screen: messages in, text out, no socket and no terminal.

private let ann = GamePlayer(name: "ann", rating: 1612)
private let bob = GamePlayer(name: "bob", rating: 1580)
private let epoch = ContinuousClock.now
private let labels: [Side: String] = [.x: "ann 1612", .o: "bob 1580"]

private func watched(fen: String = Position.start.fen) -> ServerMessage {
    .watching(
        WatchedGame(
            game: 5, x: ann, o: bob, fen: fen, moves: [], clock: Clocks(x: 60_000, o: 60_000),
            control: TimeControl(initial: 60, increment: 1)))
}

@Test func aWatcherSeesTheHeadingEachBoardWithItsClocksAndTheEnd() throws {
    var screen = WatchScreen(color: false, isInteractive: false)
    #expect(
        try screen.receive(watched(), at: epoch) == [
            .say("game 5: ann 1612 (x) v bob 1580 (o), 1+1"),
            .write("\n" + BoardRenderer().render(.start, labels: labels)), .say(" *x 1:00.0   o 1:00.0"),
        ])
    var game = Game()
    try game.play(Move(notation: "b6"))
    let moved = Moved(game: 5, move: "b6", ply: 1, fen: game.current.fen, clock: Clocks(x: 58_000, o: 60_000))
    #expect(
        try screen.receive(.moved(moved), at: epoch + .seconds(2)) == [
            .write("\n" + BoardRenderer().render(game.current, lastMove: game.lastMove, labels: labels)),
            .say("  x 0:58.0  *o 1:00.0"),
        ])
    // The same move again, or another game's, shows nothing.
    #expect(try screen.receive(.moved(moved), at: epoch + .seconds(2)) == [])
    #expect(!screen.isOver)
    #expect(screen.tick(at: epoch + .seconds(3)) == [.status("  x 0:58.0  *o 0:59.0")])
    let end = WatchedEnd(game: 5, outcome: Outcome(winner: .x, reason: .resignation))
    #expect(
        try screen.receive(.watchedEnd(end), at: epoch + .seconds(4)) == [
            .say("  x 0:58.0   o 0:58.0"), .write("game over: x wins (o resigned)\nfinal count: x 3, o 2\n"),
        ])
    #expect(screen.isOver)
    #expect(screen.tick(at: epoch + .seconds(5)) == [])
}

@Test func onATerminalTheClockLineIsAStatusLine() throws {
    var screen = WatchScreen(color: false, isInteractive: true)
    #expect(try screen.receive(watched(), at: epoch).last == .status(" *x 1:00.0   o 1:00.0"))
}

@Test func aPositionTheWatcherCannotReadIsOneClearError() {
    var screen = WatchScreen(color: false, isInteractive: false)
    #expect(throws: WatchScreen.UnreadablePosition.self) {
        try screen.receive(watched(fen: "x5o/7/7 x 0 1"), at: epoch)
    }
    #expect(screen.table == nil)
}

@Test func theWatchInputEndsWithTheConnectionsEvents() async {
    let (events, sink) = AsyncStream.makeStream(of: ServerEvent.self)
    sink.yield(.shutdown)
    sink.yield(.closed)
    sink.finish()
    var inputs: [WatchInput] = []
    // Ticks an hour apart: none comes before the events end.
    for await input in WatchInput.merging(events, tick: .seconds(3600)) { inputs.append(input) }
    #expect(inputs == [.event(.shutdown), .event(.closed)])
}
