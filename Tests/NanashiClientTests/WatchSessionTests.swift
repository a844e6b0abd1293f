import NanashiClient
import NanashiCore
import NanashiProtocol
import NanashiTerminal
import Testing

// `nanashi watch` as a state machine: events, ticks and typed lines in, actions out.

private let ann = GamePlayer(name: "ann", rating: 1612)
private let bob = GamePlayer(name: "bob", rating: 1580)
private let epoch = ContinuousClock.now
private let labels: [Side: String] = [.x: "ann 1612", .o: "bob 1580"]
private let prompt = "watch which? (number, or # and a game id)> "

private func session(_ game: Int64?) -> WatchSession {
    WatchSession(game: game, screen: WatchScreen(color: false, isInteractive: false))
}

private func reply(_ message: ServerMessage, id: RequestID? = nil) -> WatchInput {
    .event(.reply(Reply(message, id: id)))
}

private let watched = ServerMessage.watching(
    WatchedGame(
        game: 5, x: ann, o: bob, fen: Position.start.fen, moves: [], clock: Clocks(x: 60_000, o: 60_000),
        control: TimeControl(initial: 60, increment: 1)))

@Test func aGivenGameIsWatchedToItsEnd() {
    var watch = session(5)
    #expect(watch.start() == [.send(Request(.watch(game: 5), id: .string("watch")))])
    #expect(watch.handle(.tick, at: epoch) == [])
    #expect(
        watch.handle(reply(watched, id: .string("watch")), at: epoch) == [
            .show(.say("game 5: ann 1612 (x) v bob 1580 (o), 1+1")),
            .show(.write("\n" + BoardRenderer().render(.start, labels: labels))),
            .show(.say(" *x 1:00.0   o 1:00.0")),
        ])
    #expect(watch.handle(.tick, at: epoch + .seconds(1)) == [.show(.status(" *x 0:59.0   o 1:00.0"))])
    let end = WatchedEnd(game: 5, outcome: Outcome(winner: .o, reason: .timeout))
    #expect(
        watch.handle(reply(.watchedEnd(end)), at: epoch + .seconds(2)) == [
            .show(.say("  x 0:58.0   o 1:00.0")),
            .show(.write("game over: o wins (x ran out of time)\nfinal count: x 2, o 2\n")), .finish,
        ])
}

@Test func withoutAGameTheGamesInProgressArePickedFrom() {
    var watch = session(nil)
    #expect(watch.start() == [.send(Request(.live, id: .string("live")))])
    let games = [
        LiveGame(game: 12, x: ann, o: bob, control: TimeControl(initial: 300, increment: 3), ply: 14)
    ]
    // Another answer is not the list.
    #expect(watch.handle(reply(.pong), at: epoch) == [])
    #expect(
        watch.handle(reply(.live(games), id: .string("live")), at: epoch) == [
            .show(.say("  1. game 12  ann 1612 (x) v bob 1580 (o)  5+3  ply 14")), .ask(prompt),
        ])
    #expect(watch.typed("7") == [.show(.say("type a number from 1 to 1, or # and a game id")), .ask(prompt)])
    #expect(watch.typed("1") == [.send(Request(.watch(game: 12), id: .string("watch")))])
    // Once watching, a typed line does nothing.
    #expect(watch.typed("1") == [])
}

@Test func noGamesInProgressOrTheEndOfInputFinish() {
    var empty = session(nil)
    _ = empty.start()
    #expect(
        empty.handle(reply(.live([]), id: .string("live")), at: epoch) == [
            .show(.say("No games in progress.")), .finish,
        ])
    var leaving = session(nil)
    _ = leaving.start()
    let games = [
        LiveGame(game: 12, x: ann, o: bob, control: TimeControl(initial: 300, increment: 3), ply: 14)
    ]
    _ = leaving.handle(reply(.live(games), id: .string("live")), at: epoch)
    #expect(leaving.typed(nil) == [.finish])
}

@Test func refusalsAndAClosedConnectionFailWithOneLine() {
    var unknown = session(99)
    _ = unknown.start()
    let refusal = ProtocolError(.noSuchGame, "no game 99 in progress")
    #expect(
        unknown.handle(reply(.error(refusal), id: .string("watch")), at: epoch) == [
            .fail("no game 99 in progress")
        ])
    var listing = session(nil)
    _ = listing.start()
    #expect(
        listing.handle(reply(.pong, id: .string("live")), at: epoch) == [
            .fail("the server answered pong, not the games in progress")
        ])
    var closed = session(5)
    _ = closed.start()
    #expect(closed.handle(.event(.closed), at: epoch) == [.fail("the server closed the connection")])
    #expect(closed.handle(.event(.shutdown), at: epoch) == [.fail("the server closed the connection")])
    var garbled = session(5)
    _ = garbled.start()
    let bad = ServerMessage.watching(
        WatchedGame(
            game: 5, x: ann, o: bob, fen: "x5o/7/7 x 0 1", moves: [], clock: Clocks(x: 1, o: 1),
            control: TimeControl(initial: 60, increment: 1)))
    #expect(
        garbled.handle(reply(bad), at: epoch).first.map { if case .fail = $0 { true } else { false } } == true
    )
}
