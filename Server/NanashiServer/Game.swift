import Foundation
import Logging
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import NanashiTransport
import Synchronization

/// One game in progress, and the only truth about it: it checks every move with the rules
/// core, runs both clocks on the server's own clock, and ends the game by the rules, by
/// resignation, on time or by abandonment, or aborts it when a side makes no first move in
/// time.
///
/// Each accepted move is stored before it is announced. Storing runs on the storage threads
/// while the game waits: meanwhile it refuses another move, and its timers do not end it on
/// time (the move was read in time). The mover's clock stops when their move was read from
/// the socket, and the opponent's starts once it is stored and announced: the store is charged
/// to no one.
actor Game {
    /// A player as the game knows them.
    struct Player: Sendable {
        var id: Int64
        var name: String
        var rating: Double
    }

    let id: Int64
    let control: TimeControl
    let players: [Side: Player]
    /// Whether the result may change ratings (games against the engine never do).
    let isRated: Bool

    private let storage: any Storage
    private let settings: ServerSettings
    private let logger: Logger
    private let onEnd: @Sendable (Game) async -> Void
    /// Told when storage refused a move or the result because the game is no longer this
    /// node's (another node took it over): the lobby finds where it went.
    private let onRefused: @Sendable (Game) async -> Void
    private let handedOverFlag = Atomic<Bool>(false)

    private var position: Position
    private var moves: [Move]
    /// Both clocks: the side to move's runs, unless the game is paused, not begun, or a move
    /// is being stored. They read the time from `settings.clock`, as every timer here does.
    private var clock: GameClock
    private var outboxes: [Side: Outbox] = [:]
    /// The connections watching, by outbox id. They get each line after the players, and
    /// never hold the game up: a watcher that does not read is dropped by its transport.
    private var watchers: [Int: Outbox] = [:]
    /// Moves played, readable without waiting for the game (for the `live` list).
    private let plyCount = Atomic<Int>(0)
    private var flagTimer: Task<Void, Never>?
    /// When `flagTimer` wakes.
    private var flagTimerWakes: ContinuousClock.Instant
    private var absenceTimers: [Side: Task<Void, Never>] = [:]
    /// When each absent side's grace period ends.
    private var absenceDeadlines: [Side: ContinuousClock.Instant] = [:]
    /// Wakes `settings.firstMoveLimit` after the start to abort the game if a side has not moved.
    private var abortTimer: Task<Void, Never>?
    /// After a restart, neither clock runs until both players are back.
    private var paused = false
    /// Set by `halt()`: the server is stopping and the game stays as stored.
    private var halted = false
    private var finishRetry: Task<Void, Never>?
    /// Failed attempts to store the result so far.
    private var finishAttempts = 0
    /// Attempts to store the result before its players are told it is late (about two minutes
    /// of backing off); it is tried again every 64 s after that, until stored or the server
    /// stops (and then resumed, unfinished, at the next start).
    static let finishAttempts = 8
    private(set) var isOver = false
    /// The game is over and its result stored and announced.
    var hasEnded: Bool { isOver && !finishing && !halted }
    /// A move is being stored.
    private var storing = false
    /// A move is being stored (for tests that need one held there).
    var isStoringMove: Bool { storing }
    /// The result is being stored: a player who comes back meanwhile still gets the `end`.
    private var finishing = false
    /// The abort timer woke while a move was being stored; looked at again once it is.
    private var abortDue = false
    /// An end that came while a move was being stored: the move was read first, so it counts
    /// (or fails) before the end is played out.
    private var endDue: DueEnd?
    /// A resignation whose result storage has not taken yet (it is tried again): if the game
    /// is handed over meanwhile, its new host plays it.
    private var unstoredResignation: Resignation?

    private enum DueEnd {
        case resignation(Side, RequestID?)
        case abandonment(Side)
    }

    init(
        id: Int64, control: TimeControl, players: [Side: Player], position: Position = .start,
        moves: [Move] = [],
        clocks: Clocks? = nil, outboxes: [Side: Outbox] = [:], isRated: Bool = true, storage: any Storage,
        settings: ServerSettings, logger: Logger,
        onEnd: @escaping @Sendable (Game) async -> Void,
        onRefused: @escaping @Sendable (Game) async -> Void = { _ in }
    ) {
        self.onRefused = onRefused
        self.id = id
        self.control = control
        self.players = players
        self.isRated = isRated
        self.position = position
        self.moves = moves
        let initial = control.initialMilliseconds
        let now = settings.clock.now
        self.clock = GameClock(clocks ?? Clocks(x: initial, o: initial), running: nil, since: now)
        self.flagTimerWakes = now
        self.outboxes = outboxes
        self.plyCount.store(moves.count, ordering: .relaxed)
        self.storage = storage
        self.settings = settings
        self.logger = logger
        self.onEnd = onEnd
    }

    nonisolated func side(of playerID: Int64) -> Side? {
        players.first { $0.value.id == playerID }?.key
    }

    /// The game as the `live` list shows it, read without waiting for the game.
    nonisolated var live: LiveGame {
        LiveGame(
            game: id, x: player(.x), o: player(.o), initial: control.initial, increment: control.increment,
            ply: plyCount.load(ordering: .relaxed))
    }

    /// The mean of both players' ratings as the game started: what the `live` list sorts by.
    nonisolated var rating: Double { (players[.x]!.rating + players[.o]!.rating) / 2 }

    private nonisolated func player(_ side: Side) -> GamePlayer {
        GamePlayer(name: players[side]!.name, rating: rounded(players[side]!.rating))
    }

    /// Starts the clock of the side to move and tells both players (those connected).
    func begin() {
        // Read before anyone is told, so that a timer is armed from the instant the game began.
        let now = settings.clock.now
        clock.start(position.sideToMove, at: now)
        let fen = position.fen
        for side in Side.allCases {
            outboxes[side]?.send(
                .start(
                    GameStart(
                        game: id, color: side, opponent: opponent(of: side), fen: fen,
                        initial: control.initial, increment: control.increment, legal: legalMoves(for: side)))
            )
        }
        armFlag()
        armAbort(from: now)
    }

    /// Aborts the game `settings.firstMoveLimit` after `start` unless both sides have moved by then.
    private func armAbort(from start: ContinuousClock.Instant) {
        guard moves.count < 2 else { return }
        let (deadline, clock) = (start + settings.firstMoveLimit, settings.clock)
        abortTimer?.cancel()
        abortTimer = Task { [weak self] in
            try? await clock.sleep(until: deadline)
            guard !Task.isCancelled else { return }
            await self?.abortIfUnstarted()
        }
    }

    /// Moves each side must make before a resignation, an abandonment or a loss on time is rated.
    static let movesBeforeRated = 2
    /// The ends that rate nothing before both sides have made `movesBeforeRated` moves.
    static let unratedWhenEarly: Set<Outcome.Reason> = [.resignation, .abandonment, .timeout]

    /// Ends the game, unrated, if either side has not made its first move.
    private func abortIfUnstarted() async {
        abortTimer = nil
        guard !storing else {
            abortDue = true
            return
        }
        guard !isOver, moves.count < 2 else { return }
        await finish(winner: nil, reason: .aborted)
    }

    /// Resumes a stored game after a restart, paused: no clock runs until both players are
    /// back (the time the side to move had used since the last stored move is given back, as
    /// after a crash it cannot be known). Both players' grace periods start now, so a game
    /// whose players never return still ends.
    func resume() async {
        // Its last move was stored, and the server stopped before the result was: the rules end
        // it now, as they would have then.
        if let outcome = position.outcome {
            await finish(winner: outcome.winner, reason: outcome.reason)
            return
        }
        paused = true
        let now = settings.clock.now
        clock.stop(at: now)
        for side in Side.allCases where outboxes[side] == nil { startAbsence(side, from: now) }
    }

    /// Plays a move for `side`, read from the socket at `readAt` (`nil`: now). The mover's
    /// `moved` carries the request's id.
    func play(_ text: String, by side: Side, requestID: RequestID?, readAt: ContinuousClock.Instant? = nil)
        async throws(ProtocolError)
    {
        guard !isOver else { throw ProtocolError(.noSuchGame, "game \(id) is over") }
        guard !storing else { throw ProtocolError(.notYourTurn, "your last move is still being stored") }
        guard side == position.sideToMove else {
            throw ProtocolError(.notYourTurn, "it is your opponent's move")
        }
        let move: Move
        do {
            move = try Move(notation: text)
        } catch {
            throw ProtocolError(.illegalMove, "'\(text.prefix(20))' is not a move: \(error)")
        }
        let next: Position
        do {
            next = try position.play(move)
        } catch {
            throw ProtocolError(.illegalMove, "\(error)")
        }
        let converted = position.captures(by: move)
        // A line read before the turn began (sent ahead) costs nothing.
        let stoppedAt = max(readAt ?? settings.clock.now, clock.since)
        if clock.left(side, at: stoppedAt) <= 0 {
            await finish(winner: side.opponent, reason: .timeout)
            return
        }
        // The mover's clock stops when the line was read; neither runs while the move is stored.
        var afterMove = clock
        afterMove.stop(afterMoveBy: side, at: stoppedAt, increment: control.incrementMilliseconds)
        let newClocks = afterMove.atTurnStart
        let ply = moves.count + 1
        storing = true
        let stored: Bool
        do {
            let (id, clocks, date) = (id, newClocks, settings.clock.date)
            try await storage.recordMove(gameID: id, ply: ply, move: move, clocks: clocks, now: date)
            stored = true
        } catch {
            logger.error("game \(id): storing move \(ply) failed: \(error)")
            stored = false
            if error as? StorageError == .noSuchGame { Task { await onRefused(self) } }
        }
        storing = false
        if abortDue {
            abortDue = false
            if stored ? moves.count + 1 < 2 : moves.count < 2 {
                await finish(winner: nil, reason: .aborted)
            }
        }
        // Ended meanwhile (aborted, or the server is stopping).
        guard !isOver else { throw ProtocolError(.noSuchGame, "game \(id) is over") }
        guard stored else {
            if await settleDueEnd() { throw ProtocolError(.noSuchGame, "game \(id) is over") }
            // The mover is not charged for the store that failed (it may have waited seconds for
            // a locked database): their clock stood still from the moment the move was read.
            clock.stop(at: stoppedAt)
            if !paused {
                clock.start(side, at: settings.clock.now)
                armFlag()
            }
            throw ProtocolError(.internalError, "the move could not be stored; play it again")
        }
        position = next
        moves.append(move)
        plyCount.store(moves.count, ordering: .relaxed)
        // The opponent's clock starts now that the move is stored and about to be sent.
        clock = afterMove
        if !paused { clock.start(side.opponent, at: settings.clock.now) }
        if moves.count >= 2 {
            abortTimer?.cancel()
            abortTimer = nil
        }
        // Only the player to move next gets their legal moves (none once the game is over): the
        // mover and the watchers get the copy without them, so the moves are listed once a move.
        let moved = Moved(
            game: id, move: move.description, ply: ply, fen: position.fen, clock: newClocks,
            converted: converted)
        outboxes[side]?.send(.moved(moved), id: requestID)
        if let next = outboxes[side.opponent] {
            var theirs = moved
            theirs.legal = position.legalMoves()
            next.send(.moved(theirs))
        }
        sendWatchers(.moved(moved))
        if let outcome = position.outcome {
            endDue = nil
            await finish(winner: outcome.winner, reason: outcome.reason)
        } else if await settleDueEnd() {
            return
        } else if !paused {
            armFlag()
        }
    }

    /// Plays out an end that came while a move was stored; `true` if the game is over now.
    private func settleDueEnd() async -> Bool {
        guard let due = endDue else { return false }
        endDue = nil
        switch due {
        case .resignation(let side, let requestID):
            await finish(winner: side.opponent, reason: .resignation, requestIDs: [side: requestID])
        case .abandonment(let side):
            await abandoned(side)
        }
        return isOver
    }

    /// `side` gives up; their `end` carries the request's id.
    func resign(_ side: Side, requestID: RequestID?) async throws(ProtocolError) {
        guard !isOver else { throw ProtocolError(.noSuchGame, "game \(id) is over") }
        guard !storing else {
            // The move being stored was read first: it counts, then this.
            if endDue == nil { endDue = .resignation(side, requestID) }
            return
        }
        await finish(winner: side.opponent, reason: .resignation, requestIDs: [side: requestID])
    }

    /// A player is back: their messages go to this connection, and they get the whole game.
    func rejoin(_ side: Side, outbox: Outbox) {
        if finishing { outboxes[side] = outbox }
        guard !isOver else { return }
        outboxes[side] = outbox
        absenceTimers.removeValue(forKey: side)?.cancel()
        absenceDeadlines[side] = nil
        outbox.send(
            .game(
                GameState(
                    game: id, color: side, opponent: opponent(of: side), fen: position.fen,
                    moves: moves.map(\.description), clock: clocksNow(), initial: control.initial,
                    increment: control.increment, legal: legalMoves(for: side))))
        if paused, Side.allCases.allSatisfy({ outboxes[$0] != nil }) {
            // Both are back after a restart: the side to move's clock runs from now, and a
            // side that has not made its first move has the first-move limit from now.
            paused = false
            let now = settings.clock.now
            clock.start(position.sideToMove, at: now)
            armFlag()
            armAbort(from: now)
        }
    }

    /// A connection starts watching: it gets the whole game now (again, if it already watched
    /// it), then every `moved` and the `end`.
    func watch(_ outbox: Outbox, requestID: RequestID?) throws(ProtocolError) {
        guard !isOver || finishing, !halted else {
            throw ProtocolError(.noSuchGame, "no game \(id) is in progress")
        }
        watchers[outbox.id] = outbox
        outbox.send(
            .watching(
                WatchedGame(
                    game: id, x: player(.x), o: player(.o), fen: position.fen,
                    moves: moves.map(\.description),
                    clock: clocksNow(), initial: control.initial, increment: control.increment)),
            id: requestID)
    }

    /// A connection stops watching (or closed).
    func unwatch(_ outbox: Outbox) {
        watchers[outbox.id] = nil
    }

    /// Sends every watcher the same line, encoded once.
    private func sendWatchers(_ message: ServerMessage) {
        guard !watchers.isEmpty else { return }
        let line = Wire.line(Reply(message))
        for watcher in watchers.values { watcher.sendWatched(line) }
    }

    /// A player's connection went away; the game goes on and their grace period starts.
    func left(_ side: Side, outbox: Outbox) {
        guard !isOver, outboxes[side] == outbox else { return }
        outboxes[side] = nil
        startAbsence(side, from: settings.clock.now)
    }

    /// Both clocks as they stand this instant.
    func clocksNow() -> Clocks { clock.reading(at: settings.clock.now) }

    /// Stops the game's timers without ending it, as when the server shuts down: it stays
    /// unfinished in storage and resumes at the next start.
    func halt() {
        isOver = true
        halted = true
        finishRetry?.cancel()
        stopTimers()
    }

    /// Lets the game go to the node that hosts it now, without ending or rating it: it is
    /// halted here, and `isHandedOver` from then on. Returns its watchers, who watch it no
    /// longer here (the lobby has them follow it), and the resignation it had not stored yet,
    /// which the game's host is to play.
    @discardableResult
    func handOver() -> HandedOver {
        handedOverFlag.store(true, ordering: .relaxed)
        halt()
        var resignation = unstoredResignation
        if resignation == nil, case .resignation(let side, let requestID)? = endDue {
            resignation = Resignation(side: side, requestID: requestID)
        }
        endDue = nil
        // Nothing is sent from here any more; the engine's seat, which holds the game, is let go.
        outboxes = [:]
        defer { watchers = [:] }
        return HandedOver(watchers: Array(watchers.values), resignation: resignation)
    }

    /// What a game let go to another node leaves to the lobby.
    struct HandedOver {
        /// The connections that watched it here.
        var watchers: [Outbox]
        /// A player's resignation that was not stored here: the game's host plays it.
        var resignation: Resignation?
    }

    /// A side's resignation, and the id of the request that asked for it.
    struct Resignation {
        var side: Side
        var requestID: RequestID?
    }

    /// Whether another node hosts this game now (it was handed over).
    nonisolated var isHandedOver: Bool { handedOverFlag.load(ordering: .relaxed) }

    private func stopTimers() {
        flagTimer?.cancel()
        flagTimer = nil
        abortTimer?.cancel()
        abortTimer = nil
        for timer in absenceTimers.values { timer.cancel() }
        absenceTimers = [:]
    }

    // MARK: Timers

    /// Makes sure a timer wakes by the time the side to move's time would run out, whether or
    /// not anyone sends anything. A timer already due to wake by then is kept, so most moves
    /// start no timer: one that wakes early looks at the clocks again and sleeps on.
    private func armFlag() {
        let deadline = clock.since + .milliseconds(clock.atTurnStart[position.sideToMove])
        if flagTimer != nil, flagTimerWakes <= deadline { return }
        flagTimer?.cancel()
        flagTimerWakes = deadline
        flagTimer = Task { [weak self, clock = settings.clock] in
            try? await clock.sleep(until: deadline)
            guard !Task.isCancelled else { return }
            await self?.flagTimerWoke()
        }
    }

    private func flagTimerWoke() async {
        flagTimer = nil
        // A move being stored was read in time; the flag is armed again once it is stored.
        guard !isOver, !paused, !storing else { return }
        let mover = position.sideToMove
        if clock.left(mover, at: settings.clock.now) <= 0 {
            await finish(winner: mover.opponent, reason: .timeout)
        } else {
            armFlag()
        }
    }

    private func startAbsence(_ side: Side, from start: ContinuousClock.Instant) {
        absenceTimers[side]?.cancel()
        let deadline = start + settings.abandonGrace
        absenceDeadlines[side] = deadline
        absenceTimers[side] = Task { [weak self, clock = settings.clock] in
            try? await clock.sleep(until: deadline)
            guard !Task.isCancelled else { return }
            await self?.abandoned(side)
        }
    }

    /// `side`'s own grace period ran out: they lose, unless the opponent's ran out too (neither
    /// came back after a restart, their grace periods starting together), when the side to
    /// move, whose clock would have run, loses.
    private func abandoned(_ side: Side) async {
        // This timer's own task goes on to store the result: `finish` must not cancel it (as
        // it cancels the other timers), or a storage that heeds cancellation (PostgreSQL's)
        // would refuse to store it.
        absenceTimers[side] = nil
        guard !isOver, outboxes[side] == nil else { return }
        guard !storing else {
            if endDue == nil { endDue = .abandonment(side) }
            return
        }
        let bothGone =
            outboxes[side.opponent] == nil
            && absenceDeadlines[side.opponent].map { $0 <= settings.clock.now } == true
        let loser = bothGone ? position.sideToMove : side
        await finish(winner: loser.opponent, reason: .abandonment)
    }

    // MARK: The end

    /// Stores the result and both new ratings in one transaction, then tells each player.
    private func finish(winner: Side?, reason: Outcome.Reason, requestIDs: [Side: RequestID?] = [:]) async {
        guard !isOver else { return }
        isOver = true
        finishing = true
        stopTimers()
        let outcome = Outcome(winner: winner, reason: reason)
        // Resigning, leaving or flagging before both sides have played a little, or never
        // starting, rates nothing: otherwise throwaway accounts could hand out rating for free.
        let early = moves.count < 2 * Self.movesBeforeRated
        let rated = isRated && reason != .aborted && !(early && Self.unratedWhenEarly.contains(reason))
        let period = settings.ratingPeriod.inSeconds
        let now = settings.clock.date
        let score: Double = winner == nil ? 0.5 : (winner == .x ? 1 : 0)
        var changes: [Side: RatingChange] = [:]
        do {
            let id = id
            let ratings = try await storage.finishGame(id: id, outcome: outcome, rated: rated, now: now) {
                x, o in
                let glicko = Glicko2()
                func aged(_ player: PlayerRow) -> Rating {
                    guard let ratedAt = player.ratedAt, period > 0 else { return player.glicko }
                    return glicko.aged(
                        player.glicko, periods: max(0, now.timeIntervalSince1970 - ratedAt) / period)
                }
                let (xNow, oNow) = (aged(x), aged(o))
                return (
                    glicko.rated(xNow, results: [(oNow, score)]),
                    glicko.rated(oNow, results: [(xNow, 1 - score)])
                )
            }
            if let ratings {
                changes[.x] = RatingChange(
                    before: rounded(ratings.x.before.rating), after: rounded(ratings.x.after.rating))
                changes[.o] = RatingChange(
                    before: rounded(ratings.o.before.rating), after: rounded(ratings.o.after.rating))
            }
        } catch {
            // Nothing is announced that is not stored: try again in a moment. If the server
            // stops first, the game is still unfinished in storage and resumes at the next start.
            logger.error("game \(id): storing the result failed: \(error)")
            if reason == .resignation, let winner {
                unstoredResignation = Resignation(
                    side: winner.opponent, requestID: requestIDs[winner.opponent] ?? nil)
            }
            guard !halted else { return }
            if error as? StorageError == .noSuchGame { Task { await onRefused(self) } }
            finishAttempts += 1
            if finishAttempts == Self.finishAttempts {
                // Never given up while the server runs: a result left unstored came back after a
                // restart as a game going on (a loss on time undone), and on shared storage kept
                // its players from seeking anyway. They hear why nothing has come yet.
                logger.error("game \(id): the result is still not stored; trying every minute")
                for side in Side.allCases {
                    outboxes[side]?.send(
                        .error(
                            ProtocolError(
                                .internalError,
                                "game \(id)'s result is not stored yet; it is tried again every minute")))
                }
            }
            // Backing off: 1 s, 2 s, 4 s... between attempts, then every 64 s.
            let wait = Duration.seconds(1 << min(finishAttempts - 1, 6))
            finishRetry = Task { [weak self, clock = settings.clock] in
                try? await clock.sleep(for: wait)
                guard !Task.isCancelled else { return }
                await self?.retryFinish(winner: winner, reason: reason, requestIDs: requestIDs)
            }
            return
        }
        finishing = false
        unstoredResignation = nil
        logger.info(
            "game \(id) ended: \(outcome.storedResult) by \(reason.rawValue) after \(moves.count) moves\(rated ? "" : ", unrated")",
            metadata: ["x": "\(players[.x]!.name)", "o": "\(players[.o]!.name)"])
        for side in Side.allCases {
            let rating = rounded(players[side]!.rating)
            outboxes[side]?.send(
                .end(
                    GameEnd(
                        game: id, outcome: outcome,
                        rating: changes[side] ?? RatingChange(before: rating, after: rating))),
                id: requestIDs[side] ?? nil)
        }
        sendWatchers(.watchedEnd(WatchedEnd(game: id, outcome: outcome)))
        outboxes = [:]
        watchers = [:]
        Task { await onEnd(self) }
    }

    private func retryFinish(winner: Side?, reason: Outcome.Reason, requestIDs: [Side: RequestID?]) async {
        guard !halted else { return }
        isOver = false
        await finish(winner: winner, reason: reason, requestIDs: requestIDs)
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
}
