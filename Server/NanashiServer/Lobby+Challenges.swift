import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// Challenges by name: one player asks another for a game on their terms, and the game starts
/// the moment the other accepts. The rules of who may challenge whom are `Challenges`'s.
extension Lobby {
    /// `challenger` (on `outbox`) challenges the player named `name`: they hear `challenged` now
    /// if connected, else when they log in while it stands. Without a name, the challenge is
    /// open to whoever accepts it first: its link (`challenge_sent`) says where.
    func challenge(
        _ name: String?, terms: ChallengeTerms, from challenger: PlayerRow, outbox: Outbox,
        requestID: RequestID?
    ) async throws(ProtocolError) {
        guard let id = challenger.id, connections[id]?.outbox == outbox else {
            throw ProtocolError(.notAuthenticated, "this session was taken over by another login")
        }
        guard let name else {
            let added = try challenges.add(
                id: Base64URL.encode(Secrets.randomBytes(16)), from: Self.challengePlayer(challenger),
                to: nil,
                terms: terms, at: settings.clock.now)
            outbox.send(.challengeSent(added.sent), id: requestID)
            share(added)
            logger.info("challenge \(added.id.prefix(6)) by link: \(challenger.name) at \(terms.control)")
            return
        }
        let found: PlayerRow?
        do {
            found = try await storage.player(named: name)
        } catch {
            logger.error("reading a challenged player failed: \(error)")
            throw ProtocolError(.internalError, "the server failed; nothing changed")
        }
        guard let target = found, let targetID = target.id, target.passwordHash != EnginePlayer.passwordHash
        else {
            if found != nil {
                throw ProtocolError(.badRequest, "to play the computer, seek with ai")
            }
            throw ProtocolError(.noSuchPlayer, "no player is named \(name.prefix(40))")
        }
        // The session may have ended while storage was read.
        guard connections[id]?.outbox == outbox else {
            throw ProtocolError(.notAuthenticated, "this session was taken over by another login")
        }
        // Refused for good (stored), not only for the session the refusal was made in.
        if target.refusesChallenges, target.id != id {
            throw ProtocolError(.challengeRefused, "\(target.name) takes no challenges now")
        }
        let added = try challenges.add(
            id: Base64URL.encode(Secrets.randomBytes(16)), from: Self.challengePlayer(challenger),
            to: Self.challengePlayer(target), terms: terms, at: settings.clock.now)
        outbox.send(.challengeSent(added.sent), id: requestID)
        connections[targetID]?.outbox.send(.challenged(added.received))
        share(added)
        logger.info(
            "challenge \(added.id.prefix(6)): \(challenger.name) to \(target.name) at \(terms.control)")
    }

    /// `player` (on `outbox`) accepts challenge `id`: the game starts at once, `start` to both.
    ///
    /// - Throws: `no_such_challenge` (also when it ended while its game was being started),
    ///   `in_game` (the acceptor, or the challenger, is playing or starting a game: the challenge
    ///   stands), `internal_error` if the game cannot be stored.
    func accept(_ id: String, by acceptor: PlayerRow, outbox: Outbox) async throws(ProtocolError) {
        guard let player = acceptor.id else { return }
        try await checkMayStartAGame(player, outbox: outbox)
        let challenge = try challenges.accept(id, by: Self.challengePlayer(acceptor))
        if challenge.terms.rated, acceptor.engineHelpAt != nil {
            let restricted = ProtocolError(.restricted, "you may play casual games only")
            _ = putBack(challenge, restricted)
            throw restricted
        }
        if let owner = challenge.node, let cluster {
            // Made on another node, which starts the game: `start` comes from there; if it
            // cannot, that node sends the challenge again.
            do {
                try await takeSeeks(of: [player])
            } catch {
                throw putBack(challenge, error)
            }
            challenges.started(id)
            cluster.send(.acceptChallenge(id: id, player: player, node: cluster.node), to: owner)
            return
        }
        let challenger = challenge.from
        do {
            try await checkChallengerMayPlay(challenge)
        } catch {
            throw putBack(challenge, error)
        }
        let side = challenge.terms.challengerSide ?? (Bool.random() ? .x : .o)
        let (xID, oID) = side == .x ? (challenger.id, player) : (player, challenger.id)
        do {
            try startingGame(of: [xID, oID])
        } catch {
            throw putBack(challenge, error)
        }
        defer { startedGame(of: [xID, oID]) }
        do {
            try await takeSeeks(of: [xID, oID])
        } catch {
            throw putBack(challenge, error)
        }
        for player in [xID, oID] { moveOn(player) }
        let stored: (x: PlayerRow, o: PlayerRow, game: Int64)
        do {
            stored = try await storeGame(of: challenge, x: xID, o: oID)
        } catch {
            throw putBack(challenge, error)
        }
        challenges.started(id)
        shareEnd(of: challenge.id, "accepted")
        // Both may have left while it was stored: whoever is here gets `start`, the other the
        // game when they come back.
        let outboxes = [Side.x: connections[xID]?.outbox, .o: connections[oID]?.outbox].compactMapValues {
            $0
        }
        let game = makeGame(
            id: stored.game, control: challenge.terms.control, x: stored.x, o: stored.o,
            start: challenge.terms.start, position: challenge.terms.start, moves: [], clocks: nil,
            outboxes: outboxes, isRated: challenge.terms.rated)
        let kind = challenge.terms.rated ? "rated" : "casual"
        logger.info(
            "game \(stored.game) started from a challenge: \(stored.x.name) (x) v \(stored.o.name) (o), \(kind)"
        )
        await game.begin()
    }

    /// Puts back `challenge`, whose game could not start for `error`, and returns what its
    /// acceptor hears: `error`, or `no_such_challenge` if it ended while it was taken (its
    /// challenger left, its acceptor logged out, or its time ran out): then its players and
    /// the other nodes hear that it ended.
    func putBack(_ challenge: Challenges.Challenge, _ error: ProtocolError) -> ProtocolError {
        let now = settings.clock.now
        guard challenges.restore(challenge, at: now) != nil else {
            let reason: ChallengeEnd = challenge.expires <= now ? .expired : .left
            tellCancelled(challenge, reason)
            shareEnd(of: challenge.id, reason.rawValue)
            return ProtocolError(.noSuchChallenge, "no challenge \(challenge.id.prefix(40)) stands for you")
        }
        return error
    }

    /// Stores the game of accepted `challenge`, `xID` playing x and `oID` o, hosted here.
    ///
    /// - Throws: `internal_error` (the challenge stands) when it cannot be stored.
    func storeGame(of challenge: Challenges.Challenge, x xID: Int64, o oID: Int64) async throws(ProtocolError)
        -> (x: PlayerRow, o: PlayerRow, game: Int64)
    {
        do {
            guard let x = try await storage.player(id: xID), let o = try await storage.player(id: oID) else {
                throw StorageError.damaged("a player of a challenge is missing")
            }
            let game = try await storage.createGame(
                xID: xID, oID: oID, control: challenge.terms.control, now: settings.clock.date,
                casual: !challenge.terms.rated, start: Self.storedStart(challenge.terms.start))
            try await cluster?.hosts(game: game)
            return (x, o, game)
        } catch {
            logger.error("starting a challenge's game failed: \(error)")
            throw ProtocolError(.internalError, "the game could not be started; the challenge stands")
        }
    }

    /// The challenge by link `id` as whoever opens it is challenged, while it is open.
    func openChallenge(_ id: String) -> ChallengeNotice? {
        guard let challenge = challenges.standing[id], challenge.to == nil else { return nil }
        return challenge.received
    }

    /// `player` declines challenge `id`: its challenger hears why, if they said.
    func decline(_ id: String, by player: Int64, reason: String?, outbox: Outbox, requestID: RequestID?)
        throws(ProtocolError)
    {
        let challenge = try challenges.decline(id, by: player, at: settings.clock.now)
        outbox.send(.challengeDeclined(challenge: id, reason: reason), id: requestID)
        connections[challenge.from.id]?.outbox.send(.challengeDeclined(challenge: id, reason: reason))
        shareEnd(of: id, "declined", reason: reason)
    }

    /// `player` withdraws their challenge `id`: the player challenged hears it.
    func withdraw(_ id: String, by player: Int64, outbox: Outbox, requestID: RequestID?) throws(ProtocolError)
    {
        let challenge = try challenges.withdraw(id, by: player)
        outbox.send(.challengeCancelled(challenge: id, reason: .withdrawn), id: requestID)
        if let to = challenge.to {
            connections[to.id]?.outbox.send(.challengeCancelled(challenge: id, reason: .withdrawn))
        }
        shareEnd(of: id, ChallengeEnd.withdrawn.rawValue)
    }

    /// `player` takes challenges from now on, or refuses them: stored, so that it lasts past
    /// this session, until they say otherwise.
    ///
    /// - Throws: `internal_error` if it cannot be stored (nothing changed).
    func setAcceptingChallenges(_ accepting: Bool, for player: Int64, outbox: Outbox, requestID: RequestID?)
        async throws(ProtocolError)
    {
        do {
            try await storage.setRefusesChallenges(!accepting, playerID: player)
        } catch {
            logger.error("storing a refusal of challenges failed: \(error)")
            throw ProtocolError(.internalError, "the server failed; nothing changed")
        }
        challenges.setAccepting(accepting, for: player)
        outbox.send(.challenges(accept: accepting), id: requestID)
        if let cluster {
            cluster.send(.challengeSetting(player: player, accepting: accepting, node: cluster.node), to: nil)
        }
    }

    /// The challenges whose time is up end: both players hear it.
    func expireChallenges() {
        for challenge in challenges.expire(at: settings.clock.now) { tellCancelled(challenge, .expired) }
    }

    /// A player just logged in on `outbox`: the challenges they made and those waiting for them.
    func tellChallenges(of player: Int64, outbox: Outbox) {
        for challenge in challenges.sent(by: player) { outbox.send(.challengeSent(challenge.sent)) }
        for challenge in challenges.waiting(for: player) { outbox.send(.challenged(challenge.received)) }
    }

    /// A player's connection closed: the challenges they made end (those whose games are
    /// being started, once it is known that they do not start).
    func withdrawChallenges(of player: Int64) {
        for challenge in challenges.removeSent(by: player) {
            tellCancelled(challenge, .left)
            shareEnd(of: challenge.id, ChallengeEnd.left.rawValue)
        }
    }

    /// A player logged out: the challenges waiting for them end (those they took, once it is
    /// known that their games do not start).
    func cancelChallenges(waitingFor player: Int64) {
        for challenge in challenges.removeWaiting(for: player) {
            tellCancelled(challenge, .left)
            shareEnd(of: challenge.id, ChallengeEnd.left.rawValue)
        }
    }

    func tellCancelled(_ challenge: Challenges.Challenge, _ reason: ChallengeEnd) {
        for player in [challenge.from.id, challenge.to?.id].compactMap({ $0 }) {
            connections[player]?.outbox.send(.challengeCancelled(challenge: challenge.id, reason: reason))
        }
    }

    /// A start as storage keeps it: `nil` for the standard start, else its FEN.
    static func storedStart(_ start: Position) -> String? { start == .start ? nil : start.fen }

    static func challengePlayer(_ row: PlayerRow) -> Challenges.Player {
        Challenges.Player(id: row.id ?? 0, name: row.name, rating: rounded(row.rating))
    }

    /// Refuses to start `challenge` when its challenger is no longer here (`no_such_challenge`:
    /// a challenger who left took their challenges with them) or may not start a game now
    /// (`in_game`).
    func checkChallengerMayPlay(_ challenge: Challenges.Challenge) async throws(ProtocolError) {
        let challenger = challenge.from
        guard let live = connections[challenger.id]?.outbox else {
            throw ProtocolError(.noSuchChallenge, "no challenge \(challenge.id.prefix(40)) stands for you")
        }
        do {
            try await checkMayStartAGame(challenger.id, outbox: live)
        } catch {
            throw ProtocolError(.inGame, "\(challenger.name) is playing a game; accept again once it ends")
        }
    }
}
