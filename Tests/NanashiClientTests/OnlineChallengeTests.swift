import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiClient

// Challenges in `nanashi online`, through the session's events and actions.

private let epoch = ContinuousClock.now

private func reply(_ message: ServerMessage, id: String? = nil) -> OnlineSession.Event {
    .server(.reply(Reply(message, id: id.map { .string($0) })))
}

private func said(_ actions: [OnlineSession.Action]) -> [String] {
    actions.compactMap { if case .say(let line) = $0 { line } else { nil } }
}

private func session(challenging: (name: String, side: Side?, rated: Bool)? = nil) -> OnlineSession {
    welcomedSession(control: TimeControl(initial: 300, increment: 3), challenge: challenging, at: epoch)
}

/// The `start` of casual game 9 at 5+3, this player on `color` against `opponent`.
private func casualStart(_ color: Side, against opponent: String, rating: Int) -> OnlineSession.Event {
    reply(
        .start(
            GameStart(
                game: 9, color: color, opponent: Opponent(name: opponent, rating: rating),
                fen: Position.start.fen, control: TimeControl(initial: 300, increment: 3), rated: false)))
}

private let terms = ChallengeTerms(
    control: TimeControl(initial: 300, increment: 3), challengerSide: .x, rated: false)

@Test func withChallengeTheSessionChallengesInsteadOfSeekingAndADeclineEndsIt() {
    var online = session(challenging: ("bob", .x, false))
    let synced = online.handle(reply(.pong, id: "sync"), at: epoch)
    #expect(synced.contains(.send(Request(.challenge(to: "bob", terms: terms), id: .string("seek")))))
    let sent = ChallengeNotice(challenge: "C1", player: "bob", rating: 1480, terms: terms)
    #expect(
        said(online.handle(reply(.challengeSent(sent), id: "seek"), at: epoch))
            == ["challenged bob (1480) to 5+3, casual, you play x; waiting for an answer..."])
    let declined = online.handle(reply(.challengeDeclined(challenge: "C1", reason: "busy")), at: epoch)
    #expect(said(declined) == ["your challenge was declined: busy"])
    #expect(declined.contains(.finish(.left)))
}

@Test func aChallengeReceivedIsAcceptedOrDeclined() {
    var online = session()
    _ = online.handle(reply(.pong, id: "sync"), at: epoch)
    let received = ChallengeNotice(challenge: "C2", player: "carl", rating: 1620, terms: terms)
    #expect(
        said(online.handle(reply(.challenged(received)), at: epoch))
            == ["carl (1620) challenges you to 5+3, casual, you play o: accept or decline"])
    #expect(
        online.handle(.line("accept"), at: epoch).contains(
            .send(Request(.accept(challenge: "C2"), id: .string("accept")))))
    #expect(said(online.handle(.line("decline"), at: epoch)) == ["no challenge to answer"])
    _ = online.handle(reply(.challenged(received)), at: epoch)
    #expect(
        online.handle(.line("decline"), at: epoch).contains(
            .send(Request(.declineChallenge(challenge: "C2", reason: nil), id: .string("accept")))))
}

@Test func aCasualGameSaysSoAtItsStart() {
    var online = session()
    _ = online.handle(reply(.pong, id: "sync"), at: epoch)
    _ = online.handle(
        reply(.challenged(ChallengeNotice(challenge: "C2", player: "carl", rating: 1620, terms: terms))),
        at: epoch)
    _ = online.handle(.line("accept"), at: epoch)
    #expect(
        said(online.handle(casualStart(.o, against: "carl", rating: 1620), at: epoch)).first
            == "challenge accepted: you play o against carl (1620) at 5+3, casual; type ? for help"
    )
}

@Test func theChallengerHearsThatTheirChallengeWasAccepted() {
    var online = session(challenging: ("bob", .x, false))
    _ = online.handle(reply(.pong, id: "sync"), at: epoch)
    let sent = ChallengeNotice(challenge: "C1", player: "bob", rating: 1480, terms: terms)
    _ = online.handle(reply(.challengeSent(sent), id: "seek"), at: epoch)
    #expect(
        said(online.handle(casualStart(.x, against: "bob", rating: 1480), at: epoch)).first
            == "bob accepted your challenge: you play x against bob (1480) at 5+3, casual; type ? for help"
    )
}

@Test func aCasualGameEndsUnrated() {
    var online = session()
    _ = online.handle(reply(.pong, id: "sync"), at: epoch)
    _ = online.handle(casualStart(.o, against: "carl", rating: 1620), at: epoch)
    let end = GameEnd(
        game: 9, outcome: Outcome(winner: .x, reason: .resignation),
        rating: RatingChange(before: 1500, after: 1500))
    #expect(said(online.handle(reply(.end(end)), at: epoch)).contains("you lose (unrated)"))
}
