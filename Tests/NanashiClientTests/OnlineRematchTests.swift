import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiClient

// The rematch after an online game, through the session's events and actions.

private let epoch = ContinuousClock.now
private let start = GameStart(
    game: 7, color: .x, opponent: Opponent(name: "bob", rating: 1480), fen: Position.start.fen,
    control: TimeControl(initial: 600, increment: 0))
private let end = GameEnd(
    game: 7, outcome: Outcome(winner: .o, reason: .resignation),
    rating: RatingChange(before: 1500, after: 1490))

private func reply(_ message: ServerMessage, id: String? = nil) -> OnlineSession.Event {
    .server(.reply(Reply(message, id: id.map { .string($0) })))
}

/// The lines said by a run of actions.
private func said(_ actions: [OnlineSession.Action]) -> [String] {
    actions.compactMap { if case .say(let line) = $0 { line } else { nil } }
}

/// A session at a terminal (or piped) whose game 7 has just ended.
private func afterTheGame(interactive: Bool = true) -> (OnlineSession, [OnlineSession.Action]) {
    var online = welcomedSession(interactive: interactive, then: repliesStarting(start), at: epoch)
    let actions = online.handle(reply(.end(end)), at: epoch)
    return (online, actions)
}

@Test func atATerminalTheEndAsksAboutARematchAndYesAsksTheServer() {
    var (online, ended) = afterTheGame()
    #expect(said(ended) == ["you lose; rating 1500 → 1490 (-10)", "rematch? (y/n)"])
    #expect(!ended.contains(.finish(.finished)))
    // The opponent's offer is shown as it comes.
    #expect(
        said(online.handle(reply(.rematchOffer(game: 7)), at: epoch))
            == ["your opponent offers a rematch, colours swapped: rematch? (y/n)"])
    #expect(said(online.handle(.line("maybe"), at: epoch)) == ["rematch? please answer y or n"])
    let yes = online.handle(.line("y"), at: epoch)
    #expect(yes.contains(.send(Request(.rematch(game: 7), id: .string("rematch")))))
    #expect(said(yes) == ["rematch asked for; waiting for your opponent (at most a minute; n to leave)"])
    #expect(
        online.handle(reply(.rematchOffered(game: 7), id: "rematch"), at: epoch).allSatisfy { !isFinish($0) })
    // The new game: colours swapped, played as any other.
    var swapped = start
    swapped.game = 8
    swapped.color = .o
    let started = online.handle(reply(.start(swapped)), at: epoch)
    #expect(
        said(started).first == "rematch: you play o against bob (1480) at 10+0; type ? for help")
    #expect(online.table?.id == 8 && online.table?.side == .o)
}

@Test func noOrALapsedOfferFinishesTheSession() {
    var (declining, _) = afterTheGame()
    #expect(declining.handle(.line("n"), at: epoch).contains(.finish(.finished)))
    var (lapsed, _) = afterTheGame()
    _ = lapsed.handle(.line("yes"), at: epoch)
    #expect(
        said(lapsed.handle(.line("x"), at: epoch)) == [
            "waiting for your opponent to accept the rematch (n to leave)"
        ])
    let declined = lapsed.handle(reply(.rematchDeclined(game: 7)), at: epoch)
    #expect(said(declined) == ["no rematch: your opponent did not take it up"])
    #expect(declined.contains(.finish(.finished)))
    var (refused, _) = afterTheGame()
    _ = refused.handle(.line("y"), at: epoch)
    let error = refused.handle(
        reply(.error(ProtocolError(.noSuchGame, "you have no finished game 7 to rematch")), id: "rematch"),
        at: epoch)
    #expect(said(error) == ["no rematch: you have no finished game 7 to rematch"])
    #expect(error.contains(.finish(.finished)))
    var (dropped, _) = afterTheGame()
    #expect(dropped.handle(.server(.closed), at: epoch).contains(.finish(.finished)))
}

@Test func pipedTheSessionFinishesAtTheEndWithoutAsking() {
    let (_, ended) = afterTheGame(interactive: false)
    #expect(!said(ended).contains("rematch? (y/n)"))
    #expect(ended.last == .finish(.finished))
}

private func isFinish(_ action: OnlineSession.Action) -> Bool {
    if case .finish = action { true } else { false }
}
