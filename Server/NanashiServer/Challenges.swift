import NanashiCore
import NanashiProtocol

/// The challenges standing on this server, and the rules of who may challenge whom: a value
/// the lobby keeps and asks, with no clock, socket or storage of its own.
///
/// A challenge stands until it is accepted, declined or withdrawn, until `lifetime` passes
/// unanswered, or until its challenger leaves. Flooding a player is bounded three ways: a
/// sender has at most `mostOpenPerSender` challenges open, a player at most
/// `mostWaitingPerPlayer` waiting for them, and a challenger whose challenge was declined waits
/// `afterDecline` before challenging that player again.
///
/// An accepted challenge is *taken* while its game is being started (the lobby waits for
/// storage then): it still counts against its sender's limit, and ends if its challenger leaves
/// meanwhile, so that a game that then cannot start puts back only a challenge that would still
/// stand.
struct Challenges {
    static let lifetime = Duration.seconds(600)
    static let mostOpenPerSender = 3
    static let mostWaitingPerPlayer = 10
    static let afterDecline = Duration.seconds(60)

    /// One player as a challenge names them.
    struct Player: Hashable, Sendable {
        var id: Int64
        var name: String
        var rating: Int
    }

    struct Challenge: Hashable, Sendable {
        /// Unguessable: 128 random bits, base64url.
        var id: String
        var from: Player
        /// `nil` for a challenge by link, open to any other player until one accepts it.
        var to: Player?
        var terms: ChallengeTerms
        var expires: ContinuousClock.Instant
        /// The node that made it (its challenger's), if another: that node starts its game.
        var node: Int64? = nil
        /// Taken out by `accept` while open to all, by link: `to` is only whoever accepted it.
        var acceptedByLink = false

        /// What the challenger is told (`challenge_sent`).
        var sent: ChallengeNotice {
            ChallengeNotice(
                challenge: id, player: to?.name, rating: to?.rating, terms: terms,
                link: to == nil ? "/challenge/\(id)" : nil)
        }

        /// What the player challenged is told (`challenged`).
        var received: ChallengeNotice {
            ChallengeNotice(challenge: id, player: from.name, rating: from.rating, terms: terms)
        }
    }

    private(set) var standing: [String: Challenge] = [:]
    /// The challenges taken out by `accept` whose games are being started.
    private(set) var taken: [String: Challenge] = [:]
    /// Until when each (challenger, challenged) pair may not meet again, after a decline.
    private var declined: [Pair: ContinuousClock.Instant] = [:]
    /// The players who refuse every challenge, for as long as they stay logged in.
    private(set) var refusing: Set<Int64> = []

    private struct Pair: Hashable {
        var from: Int64
        var to: Int64
    }

    /// Adds a challenge from `from` to `to`, if the rules allow it.
    ///
    /// - Throws: `ProtocolError`: `bad_request` to oneself, `challenge_refused` to a player who
    ///   refuses challenges or has too many waiting, `rate_limited` for a sender with too many
    ///   open or one declined by that player a moment ago.
    mutating func add(
        id: String, from: Player, to: Player?, terms: ChallengeTerms, at now: ContinuousClock.Instant
    ) throws(ProtocolError) -> Challenge {
        guard let to else {
            try checkMayOpenAnother(from.id)
            let challenge = Challenge(id: id, from: from, to: nil, terms: terms, expires: now + Self.lifetime)
            standing[id] = challenge
            return challenge
        }
        guard from.id != to.id else { throw ProtocolError(.badRequest, "you cannot challenge yourself") }
        guard !refusing.contains(to.id) else {
            throw ProtocolError(.challengeRefused, "\(to.name) takes no challenges now")
        }
        if let until = declined[Pair(from: from.id, to: to.id)], now < until {
            let seconds = Int(((until - now) / .seconds(1)).rounded(.up))
            throw ProtocolError(
                .rateLimited,
                "\(to.name) declined your challenge; you may challenge them again in \(seconds) s")
        }
        try checkMayOpenAnother(from.id)
        guard waiting(for: to.id).count < Self.mostWaitingPerPlayer else {
            throw ProtocolError(.challengeRefused, "\(to.name) has too many challenges waiting")
        }
        let challenge = Challenge(id: id, from: from, to: to, terms: terms, expires: now + Self.lifetime)
        standing[id] = challenge
        return challenge
    }

    /// The challenge `id`, taken out to be played by `player`, the one it challenges, until
    /// `started` or `restore` says how that went.
    ///
    /// - Throws: `ProtocolError`: `no_such_challenge` if none stands for them with that id,
    ///   `bad_request` for the challenger's own.
    mutating func accept(_ id: String, by player: Player) throws(ProtocolError) -> Challenge {
        guard var challenge = standing[id],
            challenge.to == nil || challenge.to?.id == player.id
                || challenge.from.id == player.id
        else {
            throw ProtocolError(.noSuchChallenge, "no challenge \(id.prefix(40)) stands for you")
        }
        guard challenge.from.id != player.id else {
            throw ProtocolError(.badRequest, "you cannot accept your own challenge")
        }
        // By link: whoever accepts first is the one challenged.
        challenge.acceptedByLink = challenge.to == nil
        challenge.to = player
        standing[id] = nil
        taken[id] = challenge
        return challenge
    }

    /// The game of taken challenge `id` started (or another node starts it): it is no longer
    /// taken.
    mutating func started(_ id: String) {
        taken[id] = nil
    }

    /// Adds a challenge another node made (and checked).
    mutating func insert(_ challenge: Challenge) {
        standing[challenge.id] = challenge
    }

    /// Takes out challenge `id`, if it stands; one taken ends too, so it is not put back.
    mutating func remove(_ id: String) -> Challenge? {
        taken[id] = nil
        return standing.removeValue(forKey: id)
    }

    /// `to` declined a challenge of `from` (on another node): `from` waits before the next.
    mutating func noteDeclined(from: Int64, to: Int64, at now: ContinuousClock.Instant) {
        declined[Pair(from: from, to: to)] = now + Self.afterDecline
    }

    /// Puts back a challenge taken out by `accept` whose game could not start, as it stood: a
    /// link open to all again. Returns it so, or `nil` if it ended while taken (its challenger
    /// left, the player it named logged out, or its time is up at `now`).
    @discardableResult
    mutating func restore(_ challenge: Challenge, at now: ContinuousClock.Instant) -> Challenge? {
        guard taken.removeValue(forKey: challenge.id) != nil, now < challenge.expires else { return nil }
        var challenge = challenge
        if challenge.acceptedByLink { (challenge.to, challenge.acceptedByLink) = (nil, false) }
        standing[challenge.id] = challenge
        return challenge
    }

    /// The challenge `id`, declined by `player`, the one it challenges: its challenger waits
    /// `afterDecline` before challenging them again.
    mutating func decline(_ id: String, by player: Int64, at now: ContinuousClock.Instant)
        throws(ProtocolError)
        -> Challenge
    {
        let challenge = try find(id, for: player)
        guard let to = challenge.to, to.id == player else {
            throw ProtocolError(.badRequest, "you cannot decline your own challenge; cancel it")
        }
        standing[id] = nil
        declined[Pair(from: challenge.from.id, to: player)] = now + Self.afterDecline
        return challenge
    }

    /// The challenge `id`, withdrawn by `player`, its challenger.
    mutating func withdraw(_ id: String, by player: Int64) throws(ProtocolError) -> Challenge {
        let challenge = try find(id, for: player)
        guard challenge.from.id == player else {
            throw ProtocolError(.badRequest, "only its challenger may cancel a challenge; decline it")
        }
        standing[id] = nil
        return challenge
    }

    /// Takes out the challenges whose time is up.
    mutating func expire(at now: ContinuousClock.Instant) -> [Challenge] {
        let expired = standing.values.filter { $0.expires <= now }
        for challenge in expired { standing[challenge.id] = nil }
        declined = declined.filter { $0.value > now }
        return expired.sorted { $0.expires < $1.expires }
    }

    /// Takes out the challenges `player` made (they left): those standing, returned, and those
    /// taken, which will not be put back.
    mutating func removeSent(by player: Int64) -> [Challenge] {
        let sent = sent(by: player)
        for challenge in sent { standing[challenge.id] = nil }
        taken = taken.filter { $0.value.from.id != player }
        refusing.remove(player)
        return sent
    }

    /// Takes out the challenges waiting for `player` (they logged out): those standing, returned,
    /// and those naming them that they had taken, which will not be put back.
    mutating func removeWaiting(for player: Int64) -> [Challenge] {
        let waiting = waiting(for: player)
        for challenge in waiting { standing[challenge.id] = nil }
        taken = taken.filter { $0.value.to?.id != player || $0.value.acceptedByLink }
        return waiting
    }

    /// Sets whether `player` takes challenges; refusing ends none that stand.
    mutating func setAccepting(_ accepting: Bool, for player: Int64) {
        if accepting { refusing.remove(player) } else { refusing.insert(player) }
    }

    /// The challenges standing for `player` to answer, oldest first.
    func waiting(for player: Int64) -> [Challenge] {
        standing.values.filter { $0.to?.id == player }.sorted { $0.expires < $1.expires }
    }

    /// The challenges `player` made that stand, oldest first.
    func sent(by player: Int64) -> [Challenge] {
        standing.values.filter { $0.from.id == player }.sorted { $0.expires < $1.expires }
    }

    /// Refuses a sender who has `mostOpenPerSender` challenges standing or taken.
    private func checkMayOpenAnother(_ player: Int64) throws(ProtocolError) {
        let open = sent(by: player).count + taken.values.count { $0.from.id == player }
        guard open < Self.mostOpenPerSender else {
            throw ProtocolError(
                .rateLimited,
                "you have \(Self.mostOpenPerSender) challenges open; cancel one or wait for an answer")
        }
    }

    /// The challenge `id`, if it concerns `player`; an unknown one and another's look the same.
    private func find(_ id: String, for player: Int64) throws(ProtocolError) -> Challenge {
        guard let challenge = standing[id], challenge.from.id == player || challenge.to?.id == player else {
            throw ProtocolError(.noSuchChallenge, "no challenge \(id.prefix(40)) stands for you")
        }
        return challenge
    }
}
