import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiClient

// Draw offers in an online game, through the session's events and actions.

private let epoch = ContinuousClock.now
private let start = GameStart(
    game: 7, color: .x, opponent: Opponent(name: "bob", rating: 1480), fen: Position.start.fen,
    control: TimeControl(initial: 600, increment: 0))

private func reply(_ message: ServerMessage, id: String? = nil) -> OnlineSession.Event {
    .server(.reply(Reply(message, id: id.map { .string($0) })))
}

/// The lines said by a run of actions, without the clocks' line the session says after each.
private func said(_ actions: [OnlineSession.Action]) -> [String] {
    actions.compactMap { if case .say(let line) = $0 { line } else { nil } }.filter {
        $0 != " *x 10:00.0   o 10:00.0"
    }
}

/// A session at a terminal playing game 7 as x.
private func playing() -> OnlineSession {
    welcomedSession(then: repliesStarting(start), at: epoch)
}

@Test func drawOffersAndDeclinesAreSentAndTheServersWordIsShown() {
    var online = playing()
    let offer = online.handle(.line("draw"), at: epoch)
    #expect(offer.contains(.send(Request(.offer(.draw, game: 7), id: .string("draw")))))
    #expect(
        said(online.handle(reply(.offered(.draw, game: 7), id: "draw"), at: epoch))
            == ["draw offered; it stands until your opponent answers or moves"])
    #expect(
        said(online.handle(reply(.declined(.draw, game: 7)), at: epoch)) == [
            "your opponent declined the draw"
        ])
    #expect(
        said(online.handle(reply(.offerMade(.draw, game: 7)), at: epoch))
            == ["your opponent offers a draw: draw to accept, decline to refuse, or play on"])
    let decline = online.handle(.line("decline"), at: epoch)
    #expect(decline.contains(.send(Request(.decline(.draw, game: 7), id: .string("draw")))))
    #expect(said(online.handle(reply(.declined(.draw, game: 7), id: "draw"), at: epoch)) == ["draw declined"])
    let refused = ProtocolError(.rateLimited, "you may offer a draw again after 10 more moves of yours")
    #expect(
        said(online.handle(reply(.error(refused), id: "draw"), at: epoch))
            == ["the server refused: you may offer a draw again after 10 more moves of yours"])
    // Another game's word is not this one's.
    #expect(said(online.handle(reply(.offerMade(.draw, game: 8)), at: epoch)).isEmpty)
}
