import Foundation
import Logging
import NanashiAI
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import NanashiTransport

/// One client connection: reads its requests in order, keeps who is logged in on it, and
/// answers. Errors become `error` replies; nothing a client sends can stop the server.
final class Connection: ConnectionHandler {
    private let outbox: Outbox
    private let peer: String
    /// The client's IP address, which per-address limits count by.
    private let address: String
    private let lobby: Lobby
    private let analyst: Analyst
    private let accounts: Accounts
    private let storage: any Storage
    private let settings: ServerSettings
    private let metrics: ServerMetrics
    private var logger: Logger
    private var session: Accounts.Session?
    /// The game the logged-in player last played a move in, and their side in it.
    private var playing: (player: Int64, game: Game, side: Side)?
    /// The games this connection watches, by id (some may have ended since), hosted here or on
    /// another node.
    private var watched: [Int64: any Spectated] = [:]
    private let opened: ContinuousClock.Instant
    private var requests = 0
    /// The message budget: every line costs one (`MessageBudget`).
    private var budget: MessageBudget
    /// The database reads of this connection's address, shared with its other connections.
    private let reads: AddressReads
    private var cutOff = false

    init(
        outbox: Outbox, peer: String, address: String, lobby: Lobby, analyst: Analyst, accounts: Accounts,
        reads: AddressReads, storage: any Storage, settings: ServerSettings, metrics: ServerMetrics,
        logger: Logger
    ) {
        self.reads = reads
        self.outbox = outbox
        self.peer = peer
        self.address = address
        self.lobby = lobby
        self.analyst = analyst
        self.accounts = accounts
        self.storage = storage
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        self.logger[metadataKey: "connection"] = "\(outbox.id)"
        self.budget = MessageBudget(settings)
        self.opened = settings.clock.now
    }

    func received(_ received: ReceivedLine) async {
        requests += 1
        guard withinBudget(received.event) else { return }
        guard case .line(let line) = received.event else {
            outbox.send(
                .error(
                    ProtocolError(.lineTooLong, "a line may have at most \(settings.maximumLineLength) bytes")
                ))
            return
        }
        let request: Request
        do {
            request = try Wire.request(fromLine: line)
        } catch {
            // Even a refused line gets its id back, if it has a readable one.
            outbox.send(.error(error), id: Wire.requestID(inLine: line))
            return
        }
        do {
            try await handle(request.message, id: request.id, readAt: received.readAt)
        } catch let error as ProtocolError {
            outbox.send(.error(error), id: request.id)
        } catch {
            logger.error("request failed: \(error)")
            outbox.send(
                .error(ProtocolError(.internalError, "the server failed; nothing changed")), id: request.id)
        }
    }

    /// Spends one message of the budget; over budget, answers `rate_limited` (and past a second
    /// burst closes the connection) and returns false.
    private func withinBudget(_ event: LineEvent) -> Bool {
        guard !cutOff else { return false }
        let verdict = budget.spend()
        guard verdict != .within else { return true }
        var id: RequestID?
        if case .line(let line) = event { id = Wire.requestID(inLine: line) }
        if verdict == .cutOff {
            cutOff = true
            logger.warning("connection closed: too many messages", metadata: ["peer": "\(peer)"])
            outbox.send(.error(ProtocolError(.rateLimited, "too many messages; closing")), id: id)
            outbox.close()
        } else {
            outbox.send(
                .error(
                    ProtocolError(.rateLimited, "too many messages; slow down (at most \(rateText) a second)")
                ),
                id: id)
        }
        return false
    }

    private var rateText: String {
        let rate = settings.messageRate
        return rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    func closed() async {
        for gameID in watched.keys { await spectated(gameID)?.unwatch(outbox) }
        if let player = session?.player.id { await lobby.detach(player, outbox: outbox) }
        let seconds = (settings.clock.now - opened).inSeconds
        logger.info(
            "connection closed",
            metadata: [
                "peer": "\(peer)", "player": "\(session?.player.name ?? "-")", "requests": "\(requests)",
                "seconds": "\(Int(seconds))",
            ])
    }

    private func handle(_ message: ClientMessage, id: RequestID?, readAt: ContinuousClock.Instant)
        async throws
    {
        let client = Accounts.Client(address: address, isOpen: outbox.isOpen)
        switch message {
        // `challenges` is a write that every node hears of: one address may not flood it either.
        case .leaderboard, .profile, .live, .games, .pgn, .auth, .watch, .analyse, .challenges:
            guard reads.spend(address) else { throw reads.refusal }
        default:
            break
        }
        switch message {
        case .register(let credentials):
            try await logIn(
                accounts.register(name: credentials.name, password: credentials.password, from: client),
                id: id)
            metrics.loggedIn("register")
        case .login(let credentials):
            try await logIn(
                accounts.login(name: credentials.name, password: credentials.password, from: client), id: id)
            metrics.loggedIn("login")
        case .resetPassword(let credentials, let token):
            try await logIn(
                accounts.resetPassword(
                    name: credentials.name, token: token, password: credentials.password, from: client),
                id: id)
            metrics.loggedIn("login")
        case .auth(let token):
            try await logIn(await accounts.resume(token: token), id: id)
            metrics.loggedIn("auth")
        case .ping:
            // A spectator's pings keep it open only while it still watches a game in progress.
            if session == nil, !watched.isEmpty {
                for watchedID in watched.keys where await spectated(watchedID)?.isOver != false {
                    watched[watchedID] = nil
                }
                outbox.markWatching(!watched.isEmpty)
            }
            outbox.send(.pong, id: id)
        case .leaderboard(let limit, let offset):
            guard (1...ClientMessage.maximumLeaderboardLimit).contains(limit), offset >= 0 else {
                throw ProtocolError(
                    .badRequest, "limit is 1 to \(ClientMessage.maximumLeaderboardLimit), offset 0 or more")
            }
            let page = try await storage.leaderboard(limit: limit, offset: offset)
            outbox.send(.leaderboard(page), id: id)
        case .profile(let name):
            guard let profile = try await storage.profile(name: name) else {
                throw ProtocolError(.noSuchPlayer, "no player is called '\(name.prefix(40))'")
            }
            outbox.send(.profile(profile), id: id)
        case .layouts:
            outbox.send(.layouts(LayoutEntry.all), id: id)
        case .levels:
            outbox.send(.levels(LevelEntry.all), id: id)
        case .live:
            // Only watching a game spares a connection the login timeout: a list does not.
            outbox.send(.live(await lobby.live()), id: id)
        case .watch(let gameID):
            try await watch(gameID, id: id)
        case .unwatch(let gameID):
            if let game = await spectated(gameID) {
                watched[gameID] = nil
                await game.unwatch(outbox)
            }
            outbox.markWatching(!watched.isEmpty)
            outbox.send(.unwatched(game: gameID), id: id)
        case .games(let name, let before, let limit):
            let limit = min(max(limit, 1), ClientMessage.maximumArchiveLimit)
            guard
                let page = try await storage.finishedGames(name: name, before: before, limit: limit)
            else {
                throw ProtocolError(.noSuchPlayer, "no player is called '\(name.prefix(40))'")
            }
            outbox.send(.games(GameArchive(name: page.name, games: page.games.map(\.archived))), id: id)
        case .pgn(let gameID):
            guard let game = try await storage.finishedGame(id: gameID) else {
                throw ProtocolError(.noSuchGame, "no finished game \(gameID)")
            }
            outbox.send(.pgn(GamePGN(game: gameID, pgn: try game.pgn())), id: id)
        case .analyse(let gameID):
            // Computing takes seconds: the connection's next lines (a move in a rematch) are
            // not held up behind it; the answer carries the request's id.
            let (analyst, address, outbox, logger) = (analyst, address, outbox, logger)
            let player = session?.player.id
            Task {
                do {
                    let body = try await analyst.analysisBody(of: gameID, from: address, by: player)
                    outbox.sendLine(try Wire.analysisLine(fields: body, id: id))
                } catch let error as ProtocolError {
                    outbox.send(.error(error), id: id)
                } catch {
                    logger.error("analysis failed: \(error)")
                    outbox.send(
                        .error(ProtocolError(.internalError, "the server failed; nothing changed")), id: id)
                }
            }
        case .logout, .seek, .seekEngine, .cancel, .move, .resign, .rematch, .offer, .decline, .challenge,
            .accept,
            .declineChallenge, .cancelChallenge, .challenges:
            guard let session, let player = session.player.id else {
                throw ProtocolError(.notAuthenticated, "log in first")
            }
            try await handle(message, player: player, session: session, id: id, readAt: readAt)
        }
    }

    /// Messages that need a logged-in player.
    private func handle(
        _ message: ClientMessage, player: Int64, session: Accounts.Session, id: RequestID?,
        readAt: ContinuousClock.Instant
    ) async throws {
        switch message {
        case .logout(let everywhere):
            try await accounts.end(session, everywhere: everywhere)
            await lobby.logOut(player, token: everywhere ? nil : session.digest, outbox: outbox)
            self.session = nil
            outbox.markLoggedIn(false)
            outbox.send(.bye, id: id)
        case .seek(let control, let layout):
            try checkTimeControl(control)
            // Seek with the rating as stored now, not as it was at login.
            let seeker = try await storage.seeker(session.player)
            try Self.checkMayPlayRated(seeker.player)
            try await lobby.seek(seeker, control: control, layout: layout, outbox: outbox, requestID: id)
        case .seekEngine(let seek):
            try checkTimeControl(seek.control)
            guard let level = Level(seek.level) else {
                throw ProtocolError(
                    .badRequest, "ai is a level from \(Level.range.lowerBound) to \(Level.range.upperBound)")
            }
            let seeker = try await storage.seeker(session.player)
            try await lobby.seekEngine(
                seeker, seek: seek, level: level, from: address, outbox: outbox, requestID: id)
        case .cancel:
            await lobby.cancel(player)
            outbox.send(.cancelled, id: id)
        case .move(let gameID, let move):
            let (game, side): (Game, Side)
            do {
                (game, side) = try await self.game(gameID, of: player)
            } catch {
                // Hosted by another node, if not here.
                try await lobby.relayMove(move, game: gameID, of: player, requestID: id, failing: error)
                return
            }
            try await game.play(move, by: side, requestID: id, readAt: readAt)
            metrics.moved(latency: settings.clock.now - readAt)
        case .resign(let gameID):
            let (game, side): (Game, Side)
            do {
                (game, side) = try await self.game(gameID, of: player)
            } catch {
                try await lobby.relayResignation(game: gameID, of: player, requestID: id, failing: error)
                return
            }
            try await game.resign(side, requestID: id)
        case .offer(let offer, let gameID), .decline(let offer, let gameID):
            let declines = if case .decline = message { true } else { false }
            let (game, side): (Game, Side)
            do {
                (game, side) = try await self.game(gameID, of: player)
            } catch {
                try await lobby.relayOffer(
                    offer, declines: declines, game: gameID, of: player, requestID: id, failing: error)
                return
            }
            if declines {
                try await game.decline(offer, by: side, requestID: id)
            } else {
                try await game.make(offer, by: side, requestID: id)
            }
        case .challenge(let name, let terms):
            try checkTimeControl(terms.control)
            if terms.rated { try await checkRatedChallenge(by: player, to: name) }
            try await lobby.challenge(name, terms: terms, from: session.player, outbox: outbox, requestID: id)
        case .accept(let challenge):
            try await lobby.accept(challenge, by: session.player, outbox: outbox)
        case .declineChallenge(let challenge, let reason):
            try await lobby.decline(challenge, by: player, reason: reason, outbox: outbox, requestID: id)
        case .cancelChallenge(let challenge):
            try await lobby.withdraw(challenge, by: player, outbox: outbox, requestID: id)
        case .challenges(let accept):
            try await lobby.setAcceptingChallenges(accept, for: player, outbox: outbox, requestID: id)
        case .rematch(let gameID):
            if let stored = try await storage.player(id: player) { try Self.checkMayPlayRated(stored) }
            try await lobby.rematch(gameID, by: player, from: address, outbox: outbox, requestID: id)
        default:
            break
        }
    }

    /// Refuses a rated game to a player a moderator marked as playing with engine help.
    private static func checkMayPlayRated(_ player: PlayerRow) throws(ProtocolError) {
        guard player.engineHelpAt == nil else { throw Lobby.markedForEngineHelp }
    }

    /// Refuses a rated challenge made by, or to, a player marked as playing with engine help
    /// (a casual one is open to them).
    private func checkRatedChallenge(by player: Int64, to name: String?) async throws {
        if let challenger = try await storage.player(id: player) { try Self.checkMayPlayRated(challenger) }
        if let name, let challenged = try await storage.player(named: name), challenged.engineHelpAt != nil {
            throw ProtocolError(.restricted, "\(challenged.name) may play casual games only")
        }
    }

    /// Refuses a time control outside the server's limits.
    private func checkTimeControl(_ control: TimeControl) throws(ProtocolError) {
        guard settings.initialClockRange.contains(control.initial),
            (0...settings.maximumIncrement).contains(control.increment)
        else {
            throw ProtocolError(
                .badRequest,
                "initial is \(settings.initialClockRange.lowerBound) to \(settings.initialClockRange.upperBound) "
                    + "seconds, increment 0 to \(settings.maximumIncrement)")
        }
    }

    /// The game in progress with this id in which the player plays, and their side: asked of
    /// the lobby once, then remembered, so that the moves of a game go straight to it. A game
    /// that has ended refuses them itself.
    private func game(_ id: Int64, of player: Int64) async throws(ProtocolError) -> (Game, Side) {
        if let playing, playing.player == player, playing.game.id == id, !playing.game.isHandedOver {
            return (playing.game, playing.side)
        }
        let (game, side) = try await lobby.game(id, of: player)
        playing = (player, game, side)
        return (game, side)
    }

    /// Starts watching a game in progress, at most `settings.maximumWatchesPerConnection` at once
    /// (games that have ended since no longer count). A player who watches lapses their
    /// rematch offer.
    private func watch(_ gameID: Int64, id: RequestID?) async throws {
        // Answered once: the game's lines follow, and sending it whole again is the game's host
        // encoding it again for nothing (`unwatch` first to be sent it again).
        if let watching = await spectated(gameID), await !watching.isOver {
            throw ProtocolError(.badRequest, "already watching game \(gameID)")
        }
        var here: Game?
        do {
            here = try await lobby.watchable(gameID)
        } catch {
            // Perhaps hosted by another node.
            guard await lobby.crossesNodes else { throw error }
        }
        if watched[gameID] == nil, watched.count >= settings.maximumWatchesPerConnection {
            for watchedID in watched.keys where await spectated(watchedID)?.isOver != false {
                watched[watchedID] = nil
            }
            guard watched.count < settings.maximumWatchesPerConnection else {
                throw ProtocolError(
                    .watchLimit,
                    "a connection may watch at most \(settings.maximumWatchesPerConnection) games")
            }
        }
        if let player = session?.player.id { await lobby.watching(player) }
        if let here {
            try await here.watch(outbox, requestID: id)
            watched[gameID] = here
        } else {
            watched[gameID] = try await lobby.watchElsewhere(gameID, outbox: outbox, requestID: id)
        }
        outbox.markWatching(true)
    }

    /// What this connection watches as game `id` now: a game handed over to another node (or
    /// taken again here from storage) is followed where it went.
    private func spectated(_ id: Int64) async -> (any Spectated)? {
        guard let game = watched[id] else { return nil }
        guard let handedOver = game as? Game, handedOver.isHandedOver else { return game }
        let now = await lobby.followed(id, by: outbox) ?? game
        watched[id] = now
        return now
    }

    /// Replies `welcome`, then moves the player's messages (and their game, if any) here.
    private func logIn(_ new: Accounts.Session, id: RequestID?) async {
        if let previous = session?.player.id, previous != new.player.id {
            await lobby.detach(previous, outbox: outbox)
        }
        session = new
        let player = new.player
        let welcome = Welcome(
            name: player.name, token: new.token, rating: rounded(player.rating), rd: rounded(player.rd),
            games: player.games, acceptsChallenges: !player.refusesChallenges)
        outbox.markLoggedIn(true)
        await lobby.attach(player, token: new.digest, outbox: outbox, welcome: welcome, id: id)
        logger.info("logged in", metadata: ["player": "\(player.name)", "peer": "\(peer)"])
    }
}
