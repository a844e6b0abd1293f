import NanashiCore
import NanashiProtocol
import NanashiTerminal

extension OnlineSession {
    /// What the open connection says after the login; returns how the session ends once it does.
    mutating func handle(_ event: ServerEvent, at now: ContinuousClock.Instant) -> Ending? {
        switch event {
        case .reply(let reply):
            return handle(reply, at: now)
        case .shutdown:
            say("the server is shutting down; reconnecting when it is back")
            actions.append(.closeConnection)
        case .closed:
            // After the game, a lost connection is a rematch declined: nothing to come back to.
            if case .afterGame = phase { return .finished }
            return connectionLost()
        }
        return nil
    }

    private mutating func handle(_ reply: Reply, at now: ContinuousClock.Instant) -> Ending? {
        switch reply.message {
        case .welcome(let welcome):
            accept(welcome)
            say("reconnected")
            welcomed()
        case .pong where reply.id == .string("sync"):
            synced()
        case .seeking:
            if case .seeking = phase { break }
            phase = .seeking(since: now)
            if let engine = settings.engine {
                say("starting a game against the engine at level \(engine.level) at \(settings.control)...")
            } else {
                say("waiting for an opponent at \(settings.control)...")
            }
        case .start(let start):
            var waited = 0
            if case .seeking(let since) = phase { waited = Int(since.duration(to: now).components.seconds) }
            actions.append(.clearStatus)
            // The session's first game, before `table` below stands for the new one.
            let isFirstGame = table == nil
            let table: OnlineTable
            do {
                table = try OnlineTable(start, now: now, view: view)
            } catch {
                return unreadable(error)
            }
            var found = "found an opponent after \(ClockText.waited(seconds: waited))"
            if settings.engine != nil { found = "ready" }
            if case .afterGame = phase { found = "rematch" }
            if let challenge = settings.challenge, isFirstGame {
                found = "\(challenge.name) accepted your challenge"
            }
            if acceptedChallenge { found = "challenge accepted" }
            acceptedChallenge = false
            // A casual game allows takebacks (one against the engine says unrated at its end).
            let casual = start.rated || settings.engine != nil ? "" : ", casual"
            let opponent = "\(table.opponent.name) (\(table.opponent.strength))"
            say(
                found + ": you play \(table.side) against \(opponent) at \(table.control)\(casual)"
                    + "; type ? for help")
            begin(table, at: now)
        case .game(let state):
            gameSinceWelcome = true
            let resumed = table?.id == state.game
            do {
                begin(try OnlineTable(state, now: now, view: view), at: now)
            } catch {
                return unreadable(error)
            }
            if resumed, takebackPending {
                say("a move was taken back")
            } else {
                say(resumed ? "back in game \(state.game)" : "resuming your game \(state.game)")
            }
            takebackPending = false
        case .moved(let moved):
            guard var table, moved.game == table.id else { break }
            let mover = table.position.sideToMove
            guard table.apply(moved, now: now) else { break }
            self.table = table
            // A move lets any takeback asked for lapse.
            takebackPending = false
            if mover == table.side { awaitingAnswer = false }
            draw(at: now)
        case .end(let end):
            guard let table, end.game == table.id else { break }
            // A `quit` left unanswered is about this game: its answer must not be taken from the next.
            confirmingQuit = false
            finish(end, table: table)
            return askAboutRematch(after: end)
        case .rematchOffer, .rematchOffered, .rematchDeclined:
            return rematch(reply.message)
        case .challengeSent, .challenged, .challengeDeclined, .challengeCancelled:
            return challenge(reply, at: now)
        case .offered(.draw, let game) where game == table?.id:
            say("draw offered; it stands until your opponent answers or moves")
        case .offerMade(.draw, let game) where game == table?.id:
            say("your opponent offers a draw: draw to accept, decline to refuse, or play on")
        case .declined(.draw, let game) where game == table?.id:
            say(reply.id == nil ? "your opponent declined the draw" : "draw declined")
        case .offered(.takeback, let game) where game == table?.id:
            takebackPending = true
            say("takeback asked for; it stands until your opponent answers or moves")
        case .offerMade(.takeback, let game) where game == table?.id:
            takebackPending = true
            say(
                "your opponent asks to take back their last move: takeback to accept, decline to refuse, or play on"
            )
        case .declined(.takeback, let game) where game == table?.id:
            takebackPending = false
            say(reply.id == nil ? "your opponent declined the takeback" : "takeback declined")
        case .profile(let profile) where reply.id == .string("away"):
            return endedWhileAway(profile)
        case .superseded:
            // Coming back would only push the other session out in turn.
            say("you logged in somewhere else; this session is closed and will not reconnect")
            return .left
        case .error(let error):
            return refused(error, id: reply.id)
        default:
            break
        }
        return nil
    }

    /// The `pong` after `welcome`: whether a game came with it is known now.
    private mutating func synced() {
        if gameSinceWelcome {
            syncing = false
        } else if table != nil {
            // Back, but the server has no game for us: it ended while we were away. Input
            // waits (still syncing) for the profile that says how.
            actions.append(send(.profile(name: name), id: "away"))
        } else {
            syncing = false
            actions.append(send(settings.seek, id: "seek"))
        }
    }

    /// How a new table draws its board: as the player last left it.
    private var view: OnlineTable.View { OnlineTable.View(color: settings.color, flipped: flipped) }

    private mutating func begin(_ new: OnlineTable, at now: ContinuousClock.Instant) {
        table = new
        phase = .playing
        awaitingAnswer = false
        confirmingQuit = false
        draw(at: now)
    }

    /// The server sent a position this client cannot read: playing on would show a wrong board.
    private mutating func unreadable(_ error: FENError) -> Ending {
        say("the server sent a position this client cannot read (\(error)); leaving")
        return .left
    }

    private mutating func refused(_ error: ProtocolError, id: RequestID?) -> Ending? {
        switch id {
        case .string("move"), .string("resign"):
            awaitingAnswer = false
            say("the server refused: \(error.message)")
        case .string("draw"):
            say("the server refused: \(error.message)")
        case .string("auth"):
            say("the server refused the session (\(error.message)); run nanashi online again to log in")
            return .left
        case .string("seek"):
            say(
                "the server refused the \(settings.challenge == nil ? "seek" : "challenge"): \(error.message)"
            )
            return .left
        case .string("accept"):
            say("the server refused: \(error.message)")
        case .string("rematch"):
            say("no rematch: \(error.message)")
            return .finished
        case .string("away"):
            // Input waits for this answer: without one, the session would wait for ever.
            say("the game ended while you were away; the server did not say how (\(error.message))")
            return .finished
        default:
            say("server: \(error.message)")
        }
        return nil
    }

    /// The game ended while this client was away; the profile's recent games (or, against the
    /// engine, its games against the computer) say how, with the rating it left for a rated
    /// game. The final count is left out: moves may have been played since this client last
    /// heard.
    private mutating func endedWhileAway(_ profile: Profile) -> Ending {
        guard let table else { return .finished }
        say("the game ended while you were away")
        if let game = profile.computer.first(where: { $0.game == table.id }) {
            say("game over: \(game.outcome.verdict)")
            say(Self.result(winner: game.outcome.winner, side: table.side) + " (unrated)")
            return .finished
        }
        guard let game = profile.recent.first(where: { $0.game == table.id }) else { return .finished }
        let outcome = game.outcome
        say("game over: \(outcome.verdict)")
        guard table.rated else {
            say(Self.result(winner: outcome.winner, side: table.side) + " (unrated)")
            return .finished
        }
        let (before, overflow) = profile.rating.subtractingReportingOverflow(game.ratingChange)
        say(
            overflow
                ? Self.result(winner: outcome.winner, side: table.side) + "; rating \(profile.rating)"
                : Self.verdict(
                    winner: outcome.winner, side: table.side, before: before, after: profile.rating))
        return .finished
    }

    private mutating func finish(_ end: GameEnd, table: OnlineTable) {
        actions.append(.write(end.outcome.summary(final: table.position)))
        guard settings.engine == nil, table.rated else {
            say(Self.result(winner: end.outcome.winner, side: table.side) + " (unrated)")
            return
        }
        say(
            Self.verdict(
                winner: end.outcome.winner, side: table.side, before: end.rating.before,
                after: end.rating.after))
    }

    /// `you win; rating 1500 → 1662 (+162)`, whatever ratings the server sends.
    static func verdict(winner: Side?, side: Side, before: Int, after: Int) -> String {
        result(winner: winner, side: side)
            + "; rating \(before) → \(after) (\(change(from: before, to: after)))"
    }

    /// `you win`, `you lose` or `a draw`.
    static func result(winner: Side?, side: Side) -> String {
        winner == nil ? "a draw" : winner == side ? "you win" : "you lose"
    }

    /// `after - before` with its sign (`+162`, `-10`, `0`), exact even where the difference
    /// overflows `Int`: without its sign, the difference of two `Int`s always fits in a `UInt`.
    static func change(from before: Int, to after: Int) -> String {
        if after >= before {
            let gain = UInt(bitPattern: after &- before)
            return gain == 0 ? "0" : "+\(gain)"
        }
        return "-\(UInt(bitPattern: before &- after))"
    }
}
