import NanashiCore
import NanashiProtocol

extension OnlineSession {
    /// The server's word on challenges: this player's own (`--challenge`), waited for as a seek
    /// is, and those received, which `accept` and `decline` answer.
    mutating func challenge(_ reply: Reply, at now: ContinuousClock.Instant) -> Ending? {
        switch reply.message {
        case .challengeSent(let notice):
            if case .seeking = phase { break }
            phase = .seeking(since: now)
            say(
                "challenged \(notice.player ?? "anyone") (\(notice.rating ?? 0)) to \(Self.terms(notice, side: notice.terms.challengerSide)); waiting for an answer..."
            )
        case .challenged(let notice):
            challengeReceived = notice.challenge
            say(
                "\(notice.player ?? "someone") (\(notice.rating ?? 0)) challenges you to \(Self.terms(notice, side: notice.terms.challengedSide)): "
                    + "accept or decline")
        case .challengeDeclined(let id, let reason):
            guard reply.id == nil, settings.challenge != nil, table == nil else {
                if challengeReceived == id { challengeReceived = nil }
                return nil
            }
            say("your challenge was declined" + (reason.map { ": \($0)" } ?? ""))
            return .left
        case .challengeCancelled(let id, let reason):
            if challengeReceived == id {
                challengeReceived = nil
                say("the challenge to you ended (\(reason.rawValue))")
                return nil
            }
            guard settings.challenge != nil, table == nil else { return nil }
            say("your challenge ended (\(reason.rawValue))")
            return .left
        default:
            break
        }
        return nil
    }

    /// Answers the challenge received last: accepted (a `start` follows) or declined.
    mutating func answerChallenge(accepting: Bool) {
        guard let id = challengeReceived else { return say("no challenge to answer") }
        guard connected else { return say("not connected: wait for the connection to come back") }
        challengeReceived = nil
        acceptedChallenge = accepting
        actions.append(
            send(
                accepting ? .accept(challenge: id) : .declineChallenge(challenge: id, reason: nil),
                id: "accept"))
    }

    /// `5+3, rated, you play x` (or `colours drawn at random`), with `, from cross` (or the
    /// FEN) for another start than the standard one.
    static func terms(_ notice: ChallengeNotice, side: Side?) -> String {
        let start =
            notice.terms.custom.map { ", from \($0.fen)" }
            ?? (notice.terms.layout.isStandard ? "" : ", from \(notice.terms.layout.name)")
        return "\(notice.terms.control), " + (notice.terms.rated ? "rated" : "casual") + start
            + (side.map { ", you play \($0)" } ?? ", colours drawn at random")
    }
}
