import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// One game in progress as a value that owns no socket, storage, clock or task: the rules, the
/// clocks and the phase of the game, and what it has asked for and not heard back.
///
/// It is told what happens (`Event`), with the instant it happened, and answers what is to be
/// done about it (`Action`), in order: store this move, send this line, arm that timer. Each
/// accepted move is stored before it is announced, and each result before the end is: while
/// either is stored, the game waits in a phase of its own for `moveStored` or `resultStored`
/// (or their failures). The actor `Game` carries the actions out; tests drive it with plain
/// values.
struct GameMachine {
    /// Attempts to store the result before its players are told it is late (about two minutes
    /// of backing off); it is tried again every 64 s after that, until stored or the server
    /// stops (and then resumed, unfinished, at the next start).
    static let finishAttempts = 8
    /// Moves each side must make before a resignation, an abandonment or a loss on time is rated.
    static let movesBeforeRated = 2
    /// The ends that rate nothing before both sides have made `movesBeforeRated` moves (a draw
    /// agreed at once would be a rating handed out or taken for free).
    static let unratedWhenEarly: Set<Outcome.Reason> = [.resignation, .abandonment, .timeout, .agreement]

    let id: Int64
    let control: TimeControl
    let players: [Side: Game.Player]
    /// Whether the result may change ratings (games against the engine never do).
    let isRated: Bool
    /// How long after the start (or a restart's return) both sides have to make their first move.
    let firstMoveLimit: Duration
    /// How long a player whose connection went away has to come back.
    let abandonGrace: Duration

    var phase: Phase = .playing
    /// The position the game started from.
    let start: Position
    var position: Position
    var moves: [Move]
    /// The offer that stands, and the side that made it; it lapses when the other side moves.
    var standingOffer: (offer: Offer, by: Side)?
    /// How many plies had been played when each side last offered each thing.
    var lastOffers: [Offer: [Side: Int]] = [:]
    /// Both clocks: the side to move's runs, unless the game is paused, not begun, or over.
    var clock: GameClock
    /// The players' connections (none for a player away).
    private(set) var outboxes: [Side: Outbox]
    /// The connections watching, by outbox id: they get each line after the players.
    private(set) var watchers: [Int: Outbox] = [:]
    /// The timers armed, and when each wakes.
    private(set) var armed: [Timer: ContinuousClock.Instant] = [:]
    /// When each absent side's grace period ends (kept once it has).
    private(set) var absenceDeadlines: [Side: ContinuousClock.Instant] = [:]

    init(
        id: Int64, control: TimeControl, players: [Side: Game.Player], isRated: Bool = true,
        start: Position = .start, position: Position = .start, moves: [Move] = [], clocks: Clocks? = nil,
        outboxes: [Side: Outbox] = [:],
        firstMoveLimit: Duration, abandonGrace: Duration, at now: ContinuousClock.Instant
    ) {
        self.id = id
        self.control = control
        self.players = players
        self.isRated = isRated
        self.firstMoveLimit = firstMoveLimit
        self.abandonGrace = abandonGrace
        self.position = position
        self.moves = moves
        self.start = start
        let initial = control.initialMilliseconds
        self.clock = GameClock(clocks ?? Clocks(x: initial, o: initial), running: nil, since: now)
        self.outboxes = outboxes
    }

    /// Moves are still played (or stored): the game has not ended, nor been halted.
    var isLive: Bool {
        switch phase {
        case .playing, .paused, .storing, .takingBack: true
        case .finishing, .over, .halted, .handedOver: false
        }
    }

    /// No clock runs until both players are back after a restart.
    var isPaused: Bool {
        switch phase {
        case .paused: true
        case .storing(let storing): storing.paused
        case .takingBack(let takingBack): takingBack.paused
        default: false
        }
    }

    /// Tells the game what happened at `now`; returns what to do about it, in order.
    mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .begin: begin(at: now)
        case .resume: resume(at: now)
        case .move(let text, let side, let requestID, let readAt):
            play(text, by: side, requestID: requestID, readAt: readAt ?? now, at: now)
        case .moveStored: moveStored(at: now)
        case .moveStoreFailed(let refused): moveStoreFailed(refused: refused, at: now)
        case .movesRemoved: movesRemoved(at: now)
        case .moveRemovalFailed: moveRemovalFailed(at: now)
        case .resign(let side, let requestID): resign(side, requestID: requestID)
        case .offer(let offer, let side, let requestID): make(offer, by: side, requestID: requestID, at: now)
        case .decline(let offer, let side, let requestID): decline(offer, by: side, requestID: requestID)
        case .rejoin(let side, let outbox): rejoin(side, outbox: outbox, at: now)
        case .left(let side, let outbox): left(side, outbox: outbox, at: now)
        case .watch(let outbox, let requestID): watch(outbox, requestID: requestID, at: now)
        case .unwatch(let outbox): unwatch(outbox)
        case .timerFired(let timer): fired(timer, at: now)
        case .resultStored(let changes): resultStored(changes)
        case .resultStoreFailed(let refused): resultStoreFailed(refused: refused, at: now)
        case .halt: halt()
        case .stop: halt(keepingClocksAt: now)
        case .handOver: handOver()
        }
    }

    // MARK: Playing

    /// Starts the clock of the side to move and tells both players (those connected); nothing
    /// if the server stopped the game first (it resumes after the restart).
    private mutating func begin(at now: ContinuousClock.Instant) -> [Action] {
        guard phase == .playing else { return [] }
        clock.start(position.sideToMove, at: now)
        var actions: [Action] = Side.allCases.compactMap { side in
            outboxes[side].map { outbox in
                .send(
                    .start(
                        GameStart(
                            game: id, color: side, opponent: opponent(of: side), fen: position.fen,
                            control: control, legal: legalMoves(for: side), rated: isRated)),
                    to: outbox, id: nil)
            }
        }
        actions += armFlag()
        actions += armAbort(from: now)
        return actions
    }

    /// Resumes a stored game after a restart, paused: no clock runs until both players are
    /// back (with the clocks stored at a planned stop; after a crash, the time the side to move
    /// had used since the last stored move is given back, as it cannot be known). Both
    /// players' grace periods start now, so a game whose players never return still ends.
    private mutating func resume(at now: ContinuousClock.Instant) -> [Action] {
        // Its last move was stored, and the server stopped before the result was: the rules end
        // it now, as they would have then.
        if let outcome = position.outcome { return finish(winner: outcome.winner, reason: outcome.reason) }
        phase = .paused
        clock.stop(at: now)
        return Side.allCases.filter { outboxes[$0] == nil }.flatMap { startAbsence($0, from: now) }
    }

    /// Checks a move and asks for it to be stored. The mover's clock stops when the move was
    /// read; neither runs while it is stored.
    private mutating func play(
        _ text: String, by side: Side, requestID: RequestID?, readAt: ContinuousClock.Instant,
        at now: ContinuousClock.Instant
    ) -> [Action] {
        guard isLive else { return [.reject(ProtocolError(.noSuchGame, "game \(id) is over"))] }
        if case .storing = phase {
            return [.reject(ProtocolError(.notYourTurn, "your last move is still being stored"))]
        }
        if case .takingBack = phase { return [.reject(Self.takingBackNow)] }
        guard side == position.sideToMove else {
            return [.reject(ProtocolError(.notYourTurn, "it is your opponent's move"))]
        }
        let move: Move
        do {
            move = try Move(notation: text)
        } catch {
            return [.reject(ProtocolError(.illegalMove, "'\(text.prefix(20))' is not a move: \(error)"))]
        }
        let next: Position
        do {
            next = try position.play(move)
        } catch {
            return [.reject(ProtocolError(.illegalMove, "\(error)"))]
        }
        // A line read before the turn began (sent ahead) costs nothing.
        let stoppedAt = max(readAt, clock.since)
        if clock.left(side, at: stoppedAt) <= 0 { return finish(winner: side.opponent, reason: .timeout) }
        var afterMove = clock
        afterMove.stop(afterMoveBy: side, at: stoppedAt, increment: control.incrementMilliseconds)
        let storing = StoringMove(
            side: side, requestID: requestID, move: move, ply: moves.count + 1, next: next,
            converted: position.captures(by: move), clock: afterMove, stoppedAt: stoppedAt, paused: isPaused)
        phase = .storing(storing)
        return [.storeMove(ply: storing.ply, move: move, clocks: afterMove.atTurnStart)]
    }

    /// The move is stored: it is played, and announced.
    private mutating func moveStored(at now: ContinuousClock.Instant) -> [Action] {
        // Halted meanwhile (the server is stopping).
        guard case .storing(let stored) = phase else { return [.reject(over)] }
        phase = stored.paused ? .paused : .playing
        var actions: [Action] = []
        // Both players' `moved` and, at times, a timer or the end: grown once.
        actions.reserveCapacity(4)
        if stored.abortDue, moves.count + 1 < 2 { actions += finish(winner: nil, reason: .aborted) }
        guard isLive else { return actions + [.reject(over)] }
        position = stored.next
        moves.append(stored.move)
        if let standing = standingOffer, standing.by != stored.side { standingOffer = nil }
        // The opponent's clock starts now that the move is stored and about to be sent.
        clock = stored.clock
        if !stored.paused { clock.start(stored.side.opponent, at: now) }
        if moves.count >= 2 { actions += cancel(.abort) }
        // Only the player to move next gets their legal moves (none once the game is over): the
        // mover and the watchers get the copy without them, so the moves are listed once a move.
        let moved = Moved(
            game: id, move: stored.move, ply: stored.ply, fen: position.fen,
            clock: stored.clock.atTurnStart, converted: stored.converted)
        if let mover = outboxes[stored.side] {
            actions.append(.send(.moved(moved), to: mover, id: stored.requestID))
        }
        if let next = outboxes[stored.side.opponent] {
            var theirs = moved
            theirs.legal = position.legalMoves()
            actions.append(.send(.moved(theirs), to: next, id: nil))
        }
        actions += sendWatchers(.moved(moved))
        if let outcome = position.outcome {
            return actions + finish(winner: outcome.winner, reason: outcome.reason)
        }
        if let due = stored.endDue {
            actions += settle(due, at: now)
            guard isLive else { return actions }
        }
        if !isPaused { actions += armFlag() }
        return actions
    }

    /// The move could not be stored: the mover is asked to play it again, and is not charged for
    /// the store that failed (it may have waited seconds for a locked database).
    private mutating func moveStoreFailed(refused: Bool, at now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = refused ? [.refused] : []
        guard case .storing(let failed) = phase else { return actions + [.reject(over)] }
        phase = failed.paused ? .paused : .playing
        if failed.abortDue, moves.count < 2 { actions += finish(winner: nil, reason: .aborted) }
        guard isLive else { return actions + [.reject(over)] }
        if let due = failed.endDue {
            actions += settle(due, at: now)
            guard isLive else { return actions + [.reject(over)] }
        }
        // Their clock stood still from the moment the move was read (or, if it started only
        // since, as both players came back after a restart, from then).
        clock.stop(at: max(failed.stoppedAt, clock.since))
        if !isPaused {
            clock.start(failed.side, at: now)
            actions += armFlag()
        }
        return actions + [
            .reject(ProtocolError(.internalError, "the move could not be stored; play it again"))
        ]
    }

    /// Plays out an end that came while a move was stored.
    private mutating func settle(_ due: DueEnd, at now: ContinuousClock.Instant) -> [Action] {
        switch due {
        case .resignation(let side, let requestID):
            finish(winner: side.opponent, reason: .resignation, requestIDs: [side: requestID])
        case .abandonment(let side):
            abandoned(side, at: now)
        }
    }

    /// `side` gives up; their `end` carries the request's id. While a move is stored, the move
    /// (read first) counts, then this.
    private mutating func resign(_ side: Side, requestID: RequestID?) -> [Action] {
        guard isLive else { return [.reject(over)] }
        if case .takingBack = phase { return [.reject(Self.takingBackNow)] }
        if case .storing(var storing) = phase {
            if storing.endDue == nil { storing.endDue = .resignation(side, requestID) }
            phase = .storing(storing)
            return []
        }
        return finish(winner: side.opponent, reason: .resignation, requestIDs: [side: requestID])
    }

    /// The refusal of a request to a game that ended.
    var over: ProtocolError { ProtocolError(.noSuchGame, "game \(id) is over") }

    // MARK: Players and watchers

    /// A player is back: their messages go to this connection, and they get the whole game.
    private mutating func rejoin(_ side: Side, outbox: Outbox, at now: ContinuousClock.Instant) -> [Action] {
        // While the result is stored, a player who comes back still gets the `end`.
        switch phase {
        case .finishing, .halted(unfinished: _?): outboxes[side] = outbox
        default: break
        }
        guard isLive else { return [] }
        outboxes[side] = outbox
        var actions = cancel(.absence(side))
        absenceDeadlines[side] = nil
        actions.append(.send(.game(state(for: side, at: now)), to: outbox, id: nil))
        actions += offerStanding(for: side)
        if isPaused, Side.allCases.allSatisfy({ outboxes[$0] != nil }) {
            // Both are back after a restart: the side to move's clock runs from now, and a
            // side that has not made its first move has the first-move limit from now.
            switch phase {
            case .storing(var storing):
                storing.paused = false
                phase = .storing(storing)
            case .takingBack(var takingBack):
                // Still waiting for storage: the clock starts once the moves are gone (or not).
                takingBack.paused = false
                phase = .takingBack(takingBack)
                return actions + armAbort(from: now)
            default: phase = .playing
            }
            clock.start(position.sideToMove, at: now)
            actions += armFlag()
            actions += armAbort(from: now)
        }
        return actions
    }

    /// A player's connection went away; the game goes on and their grace period starts.
    private mutating func left(_ side: Side, outbox: Outbox, at now: ContinuousClock.Instant) -> [Action] {
        guard isLive, outboxes[side] == outbox else { return [] }
        outboxes[side] = nil
        return startAbsence(side, from: now)
    }

    /// A connection starts watching: it gets the whole game now (again, if it already watched
    /// it), then every `moved` and the `end`.
    private mutating func watch(_ outbox: Outbox, requestID: RequestID?, at now: ContinuousClock.Instant)
        -> [Action]
    {
        switch phase {
        case .playing, .paused, .storing, .takingBack, .finishing: break
        case .over, .halted, .handedOver:
            return [.reject(ProtocolError(.noSuchGame, "no game \(id) is in progress"))]
        }
        watchers[outbox.id] = outbox
        return [.send(.watching(watched(at: now)), to: outbox, id: requestID)]
    }

    /// The whole game as `side` gets it (`game`).
    func state(for side: Side, at now: ContinuousClock.Instant) -> GameState {
        GameState(
            game: id, color: side, opponent: opponent(of: side), fen: position.fen,
            moves: moves, clock: clock.reading(at: now), control: control, legal: legalMoves(for: side),
            start: startFEN, rated: isRated)
    }

    /// The whole game as a watcher gets it.
    func watched(at now: ContinuousClock.Instant) -> WatchedGame {
        WatchedGame(
            game: id, x: player(.x), o: player(.o), fen: position.fen, moves: moves,
            clock: clock.reading(at: now), control: control, start: startFEN, rated: isRated)
    }

    /// The FEN the game started from, when not the standard start: what `game` carries as `start`.
    var startFEN: String? { start == .start ? nil : start.fen }

    private mutating func unwatch(_ outbox: Outbox) -> [Action] {
        watchers[outbox.id] = nil
        return []
    }

    /// The same message to every watcher (in the order they are numbered), if any.
    func sendWatchers(_ message: ServerMessage) -> [Action] {
        guard !watchers.isEmpty else { return [] }
        return [.sendWatched(message, to: watchers.values.sorted { $0.id < $1.id })]
    }

    /// The legal moves of `side` when it is their turn (`nil` when it is not): what `start` and
    /// `game` carry for the player to move.
    private func legalMoves(for side: Side) -> [Move]? {
        side == position.sideToMove ? position.legalMoves() : nil
    }

    private func opponent(of side: Side) -> Opponent {
        let player = players[side.opponent]!
        return Opponent(name: player.name, rating: rounded(player.rating))
    }

    func player(_ side: Side) -> GamePlayer {
        GamePlayer(name: players[side]!.name, rating: rounded(players[side]!.rating))
    }

    // MARK: Timers

    /// Makes sure a timer wakes by the time the side to move's time would run out, whether or
    /// not anyone sends anything. A timer already due to wake by then is kept, so most moves
    /// arm no timer: one that wakes early looks at the clocks again and sleeps on.
    mutating func armFlag() -> [Action] {
        let deadline = clock.since + .milliseconds(clock.atTurnStart[position.sideToMove])
        if let wakes = armed[.flag], wakes <= deadline { return [] }
        return [arm(.flag, at: deadline)]
    }

    /// Aborts the game `firstMoveLimit` after `start` unless both sides have moved by then.
    private mutating func armAbort(from start: ContinuousClock.Instant) -> [Action] {
        guard moves.count < 2 else { return [] }
        return [arm(.abort, at: start + firstMoveLimit)]
    }

    private mutating func startAbsence(_ side: Side, from start: ContinuousClock.Instant) -> [Action] {
        let deadline = start + abandonGrace
        absenceDeadlines[side] = deadline
        return [arm(.absence(side), at: deadline)]
    }

    private mutating func arm(_ timer: Timer, at deadline: ContinuousClock.Instant) -> Action {
        armed[timer] = deadline
        return .arm(timer, at: deadline)
    }

    /// Cancels the timer if it is armed.
    mutating func cancel(_ timer: Timer) -> [Action] {
        armed.removeValue(forKey: timer) == nil ? [] : [.cancel(timer)]
    }

    /// Cancels the timers of a game going on (not the result's next attempt).
    private mutating func stopTimers() -> [Action] {
        [.flag, .abort, .absence(.x), .absence(.o)].flatMap { cancel($0) }
    }

    private mutating func fired(_ timer: Timer, at now: ContinuousClock.Instant) -> [Action] {
        armed[timer] = nil
        switch timer {
        case .flag:
            // A move being stored was read in time; the flag is armed again once it is stored.
            guard phase == .playing else { return [] }
            let mover = position.sideToMove
            if clock.left(mover, at: now) <= 0 { return finish(winner: mover.opponent, reason: .timeout) }
            return armFlag()
        case .abort:
            if case .storing(var storing) = phase {
                storing.abortDue = true
                phase = .storing(storing)
                return []
            }
            guard isLive, moves.count < 2 else { return [] }
            return finish(winner: nil, reason: .aborted)
        case .absence(let side):
            return abandoned(side, at: now)
        case .finishRetry:
            guard case .finishing(let ending) = phase else { return [] }
            return [.storeResult(ending.outcome, rated: ending.rated)]
        }
    }

    /// `side`'s own grace period ran out: they lose, unless the opponent's ran out too (neither
    /// came back after a restart, their grace periods starting together), when the side to
    /// move, whose clock would have run, loses.
    private mutating func abandoned(_ side: Side, at now: ContinuousClock.Instant) -> [Action] {
        guard isLive, outboxes[side] == nil else { return [] }
        if case .storing(var storing) = phase {
            if storing.endDue == nil { storing.endDue = .abandonment(side) }
            phase = .storing(storing)
            return []
        }
        let bothGone =
            outboxes[side.opponent] == nil && absenceDeadlines[side.opponent].map { $0 <= now } == true
        let loser = bothGone ? position.sideToMove : side
        return finish(winner: loser.opponent, reason: .abandonment)
    }

    // MARK: The end

    /// Ends the game: its result is stored (and both new ratings, in one transaction), then
    /// each player told.
    mutating func finish(winner: Side?, reason: Outcome.Reason, requestIDs: [Side: RequestID?] = [:])
        -> [Action]
    {
        guard isLive else { return [] }
        let actions = stopTimers()
        // Resigning, leaving or flagging before both sides have played a little, or never
        // starting, rates nothing: otherwise throwaway accounts could hand out rating for free.
        let early = moves.count < 2 * Self.movesBeforeRated
        let rated = isRated && reason != .aborted && !(early && Self.unratedWhenEarly.contains(reason))
        let ending = Ending(
            outcome: Outcome(winner: winner, reason: reason), rated: rated, requestIDs: requestIDs)
        phase = .finishing(ending)
        return actions + [.storeResult(ending.outcome, rated: rated)]
    }

    /// The result is stored: each player and watcher is told, and the game let go.
    private mutating func resultStored(_ changes: [Side: RatingChange]) -> [Action] {
        let ending: Ending
        switch phase {
        case .finishing(let finished):
            ending = finished
            phase = .over
        case .halted(let finished?):
            ending = finished
            phase = .halted(unfinished: nil)
        case .handedOver:
            // Nothing is sent from here any more.
            return [.ended]
        default: return []
        }
        var actions: [Action] = Side.allCases.compactMap { side in
            outboxes[side].map { outbox in
                let rating = rounded(players[side]!.rating)
                let change = changes[side] ?? RatingChange(before: rating, after: rating)
                return .send(
                    .end(GameEnd(game: id, outcome: ending.outcome, rating: change)), to: outbox,
                    id: ending.requestIDs[side] ?? nil)
            }
        }
        actions += sendWatchers(.watchedEnd(WatchedEnd(game: id, outcome: ending.outcome)))
        outboxes = [:]
        watchers = [:]
        return actions + [.ended]
    }

    /// The result could not be stored: nothing is announced that is not stored, so it is tried
    /// again in a moment, backing off: 1 s, 2 s, 4 s... between attempts, then every 64 s. If
    /// the server stops first, the game is still unfinished in storage and resumes at the next
    /// start.
    private mutating func resultStoreFailed(refused: Bool, at now: ContinuousClock.Instant) -> [Action] {
        switch phase {
        case .finishing(var ending):
            ending.failures += 1
            phase = .finishing(ending)
            var actions: [Action] = refused ? [.refused] : []
            if ending.failures == Self.finishAttempts {
                // Never given up while the server runs: a result left unstored came back after a
                // restart as a game going on (a loss on time undone), and on shared storage kept
                // its players from seeking anyway. They hear why nothing has come yet.
                actions.append(.logError("game \(id): the result is still not stored; trying every minute"))
                let late = ProtocolError(
                    .internalError, "game \(id)'s result is not stored yet; it is tried again every minute")
                for side in Side.allCases {
                    if let outbox = outboxes[side] {
                        actions.append(.send(.error(late), to: outbox, id: nil))
                    }
                }
            }
            let wait = Duration.seconds(1 << min(ending.failures - 1, 6))
            return actions + [arm(.finishRetry, at: now + wait)]
        case .halted(var ending?):
            ending.failures += 1
            phase = .halted(unfinished: ending)
            return []
        default:
            return []
        }
    }

    /// Stops the game's timers without ending it, as when the server shuts down: it stays
    /// unfinished in storage and resumes at the next start.
    private mutating func halt(keepingClocksAt now: ContinuousClock.Instant? = nil) -> [Action] {
        var actions = cancel(.finishRetry) + stopTimers()
        if let now, phase == .playing || phase == .paused {
            actions.append(.storeStopClocks(ply: moves.count, clocks: clock.reading(at: now)))
        }
        switch phase {
        case .finishing(let ending): phase = .halted(unfinished: ending)
        case .halted, .handedOver: break
        case .playing, .paused, .storing, .takingBack, .over: phase = .halted(unfinished: nil)
        }
        return actions
    }

    /// Lets the game go to the node that hosts it now, without ending or rating it: its
    /// watchers watch it no longer here (the lobby has them follow it), and a resignation not
    /// stored yet goes to the game's host to play.
    private mutating func handOver() -> [Action] {
        var resignation: Game.Resignation?
        switch phase {
        case .finishing(let ending), .halted(let ending?): resignation = ending.unstoredResignation
        case .storing(let storing):
            if case .resignation(let side, let requestID)? = storing.endDue {
                resignation = Game.Resignation(side: side, requestID: requestID)
            }
        default: break
        }
        let actions = halt()
        phase = .handedOver
        let leaving = watchers.values.sorted { $0.id < $1.id }
        // Nothing is sent from here any more; the engine's seat, which holds the game, is let go.
        outboxes = [:]
        watchers = [:]
        return actions + [.handedOver(Game.HandedOver(watchers: leaving, resignation: resignation))]
    }
}
