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
///
/// The rules side of all this is `GameMachine`, a value; the actor is the loop around it: it
/// tells it what happens, with the time, and carries out what it asks (storing, sending,
/// timers on the server's clock).
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
    /// The position the game started from (a layout's, or a FEN of a challenger's own).
    let start: Position

    private let storage: any Storage
    private let settings: ServerSettings
    private let logger: Logger
    private let onEnd: @Sendable (Game) async -> Void
    /// Told when storage refused a move or the result because the game is no longer this
    /// node's (another node took it over): the lobby finds where it went.
    private let onRefused: @Sendable (Game) async -> Void
    private let handedOverFlag = Atomic<Bool>(false)

    /// The game itself: rules, clocks and phase. Everything here feeds it what happens and
    /// carries out what it asks (`run`).
    private var machine: GameMachine
    /// Moves played, readable without waiting for the game (for the `live` list).
    private let plyCount = Atomic<Int>(0)
    /// The timers armed, each with the number it was armed with: one that wakes after it was
    /// cancelled or armed again is not heard.
    private var timers: [GameMachine.Timer: (number: Int, task: Task<Void, Never>)] = [:]
    private var timersArmed = 0
    /// The moves of the `watching` lines, written once a ply.
    private var watchedMoves = WatchedMoves()

    /// Attempts to store the result before its players are told it is late.
    static let finishAttempts = GameMachine.finishAttempts
    /// Moves each side must make before a resignation, an abandonment or a loss on time is rated.
    static let movesBeforeRated = GameMachine.movesBeforeRated
    /// The ends that rate nothing before both sides have made `movesBeforeRated` moves.
    static let unratedWhenEarly = GameMachine.unratedWhenEarly

    /// The game has ended, been halted, or handed over.
    var isOver: Bool { !machine.isLive }
    /// The game is over and its result stored and announced.
    var hasEnded: Bool { machine.phase == .over }
    /// A move is being stored (for tests that need one held there).
    var isStoringMove: Bool {
        if case .storing = machine.phase { return true }
        return false
    }

    init(
        id: Int64, control: TimeControl, players: [Side: Player], start: Position = .start,
        position: Position = .start, moves: [Move] = [],
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
        self.start = start
        self.machine = GameMachine(
            id: id, control: control, players: players, isRated: isRated, start: start, position: position,
            moves: moves,
            clocks: clocks, outboxes: outboxes, firstMoveLimit: settings.firstMoveLimit,
            abandonGrace: settings.abandonGrace, at: settings.clock.now)
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
            game: id, x: player(.x), o: player(.o), control: control, ply: plyCount.load(ordering: .relaxed))
    }

    /// The mean of both players' ratings as the game started: what the `live` list sorts by.
    nonisolated var rating: Double { (players[.x]!.rating + players[.o]!.rating) / 2 }

    private nonisolated func player(_ side: Side) -> GamePlayer {
        GamePlayer(name: players[side]!.name, rating: rounded(players[side]!.rating))
    }

    /// Starts the clock of the side to move and tells both players (those connected).
    func begin() async { await run(.begin) }

    /// Resumes a stored game after a restart, paused until both players are back (or ends it,
    /// if its last move ended it by the rules).
    func resume() async { await run(.resume) }

    /// Plays a move for `side`, read from the socket at `readAt` (`nil`: now). The mover's
    /// `moved` carries the request's id; it returns once the move is stored and announced.
    func play(_ text: String, by side: Side, requestID: RequestID?, readAt: ContinuousClock.Instant? = nil)
        async throws(ProtocolError)
    {
        try await run(.move(text, by: side, requestID: requestID, readAt: readAt)).throwRejection()
    }

    /// `side` gives up; their `end` carries the request's id.
    func resign(_ side: Side, requestID: RequestID?) async throws(ProtocolError) {
        try await run(.resign(side, requestID: requestID)).throwRejection()
    }

    /// `side` offers their opponent `offer`, or accepts the opponent's standing offer.
    func make(_ offer: Offer, by side: Side, requestID: RequestID?) async throws(ProtocolError) {
        try await run(.offer(offer, by: side, requestID: requestID)).throwRejection()
    }

    /// `side` declines the opponent's standing `offer`.
    func decline(_ offer: Offer, by side: Side, requestID: RequestID?) async throws(ProtocolError) {
        try await run(.decline(offer, by: side, requestID: requestID)).throwRejection()
    }

    /// A player is back: their messages go to this connection, and they get the whole game.
    func rejoin(_ side: Side, outbox: Outbox) async { await run(.rejoin(side, outbox)) }

    /// A connection starts watching: it gets the whole game now (again, if it already watched
    /// it), then every `moved` and the `end`.
    func watch(_ outbox: Outbox, requestID: RequestID?) async throws(ProtocolError) {
        try await run(.watch(outbox, requestID: requestID)).throwRejection()
    }

    /// A connection stops watching (or closed).
    func unwatch(_ outbox: Outbox) async { await run(.unwatch(outbox)) }

    /// A player's connection went away; the game goes on and their grace period starts.
    func left(_ side: Side, outbox: Outbox) async { await run(.left(side, outbox)) }

    /// Both clocks as they stand this instant.
    func clocksNow() -> Clocks { machine.clock.reading(at: settings.clock.now) }

    /// Stops the game's timers without ending it, as when the server shuts down: it stays
    /// unfinished in storage and resumes at the next start.
    func halt() async { await run(.halt) }

    /// The server stops in order: halted, its clocks as they stand stored for the next start.
    func stop() async { await run(.stop) }

    /// Lets the game go to the node that hosts it now, without ending or rating it: it is
    /// halted here, and `isHandedOver` from then on. Returns its watchers, who watch it no
    /// longer here (the lobby has them follow it), and the resignation it had not stored yet,
    /// which the game's host is to play.
    @discardableResult
    func handOver() async -> HandedOver {
        handedOverFlag.store(true, ordering: .relaxed)
        return await run(.handOver).handedOver ?? HandedOver(watchers: [], resignation: nil)
    }

    /// What a game let go to another node leaves to the lobby.
    struct HandedOver: Hashable, Sendable {
        /// The connections that watched it here.
        var watchers: [Outbox]
        /// A player's resignation that was not stored here: the game's host plays it.
        var resignation: Resignation?
    }

    /// A side's resignation, and the id of the request that asked for it.
    struct Resignation: Hashable, Sendable {
        var side: Side
        var requestID: RequestID?
    }

    /// Whether another node hosts this game now (it was handed over).
    nonisolated var isHandedOver: Bool { handedOverFlag.load(ordering: .relaxed) }

    // MARK: Carrying out

    /// What carrying out an event leaves to the caller: the first rejection of the request and
    /// the first hand-over among the actions, if any.
    private struct Carried {
        var rejection: ProtocolError?
        var handedOver: HandedOver?

        func throwRejection() throws(ProtocolError) {
            if let rejection { throw rejection }
        }
    }

    /// Tells the game what happened now and carries out what it asks, in order: a store is
    /// awaited, and how it went told to the game, whose answer is carried out before the rest.
    @discardableResult
    private func run(_ event: GameMachine.Event) async -> Carried {
        var carried = Carried()
        await carryOut(feed(event), noting: &carried)
        return carried
    }

    /// Carries out `actions` in order, each one's follow-up before the next.
    private func carryOut(_ actions: [GameMachine.Action], noting carried: inout Carried) async {
        for action in actions {
            switch action {
            case .reject(let error) where carried.rejection == nil: carried.rejection = error
            case .handedOver(let handedOver) where carried.handedOver == nil: carried.handedOver = handedOver
            default: break
            }
            let followUp = await perform(action)
            if !followUp.isEmpty { await carryOut(followUp, noting: &carried) }
        }
    }

    private func feed(_ event: GameMachine.Event) -> [GameMachine.Action] {
        let actions = machine.handle(event, at: settings.clock.now)
        plyCount.store(machine.moves.count, ordering: .relaxed)
        return actions
    }

    /// Carries out one action; returns what the game asks once told how a store went.
    private func perform(_ action: GameMachine.Action) async -> [GameMachine.Action] {
        switch action {
        case .storeMove(let ply, let move, let clocks):
            do {
                let (id, date) = (id, settings.clock.date)
                try await storage.recordMove(gameID: id, ply: ply, move: move, clocks: clocks, now: date)
                return feed(.moveStored)
            } catch {
                logger.error("game \(id): storing move \(ply) failed: \(error)")
                return feed(.moveStoreFailed(refused: error as? StorageError == .noSuchGame))
            }
        case .storeResult(let outcome, let rated):
            return await storeResult(outcome, rated: rated)
        case .storeStopClocks(let ply, let clocks):
            do {
                try await storage.storeStopClocks(gameID: id, ply: ply, clocks: clocks)
            } catch {
                logger.error("game \(id): storing its clocks at the stop failed: \(error)")
            }
        case .removeMoves(let ply):
            do {
                try await storage.removeMoves(gameID: id, after: ply)
                return feed(.movesRemoved)
            } catch {
                logger.error("game \(id): taking back the moves after ply \(ply) failed: \(error)")
                return feed(.moveRemovalFailed)
            }
        case .send(.watching(let watched), let outbox, let requestID):
            outbox.sendLine(watchedMoves.line(watched, id: requestID))
        case .send(let message, let outbox, let requestID):
            outbox.send(message, id: requestID)
        case .sendWatched(let message, let watchers):
            let line: String
            if case .watching(let watched) = message {
                line = watchedMoves.line(watched, id: nil)
            } else {
                line = Wire.line(Reply(message))
            }
            for watcher in watchers { watcher.sendWatched(line) }
        case .arm(let timer, let deadline):
            arm(timer, at: deadline)
        case .cancel(let timer):
            timers.removeValue(forKey: timer)?.task.cancel()
        case .reject, .handedOver:
            break
        case .refused:
            Task { await onRefused(self) }
        case .ended:
            Task { await onEnd(self) }
        case .logError(let message):
            logger.error("\(message)")
        }
        return []
    }

    /// Stores the result and both new ratings in one transaction.
    private func storeResult(_ outcome: Outcome, rated: Bool) async -> [GameMachine.Action] {
        let period = settings.ratingPeriod.inSeconds
        let now = settings.clock.date
        let score: Double = outcome.winner == nil ? 0.5 : (outcome.winner == .x ? 1 : 0)
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
            logger.error("game \(id): storing the result failed: \(error)")
            return feed(.resultStoreFailed(refused: error as? StorageError == .noSuchGame))
        }
        logger.info(
            "game \(id) ended: \(outcome.storedResult) by \(outcome.reason.rawValue) after \(machine.moves.count) moves\(rated ? "" : ", unrated")",
            metadata: ["x": "\(players[.x]!.name)", "o": "\(players[.o]!.name)"])
        return feed(.resultStored(changes))
    }

    /// Arms `timer` to wake at `deadline`, in place of the one of its kind armed already. It
    /// is taken off the list as it wakes, so that what the game does then (storing the result)
    /// is not cancelled with the other timers.
    private func arm(_ timer: GameMachine.Timer, at deadline: ContinuousClock.Instant) {
        timers[timer]?.task.cancel()
        timersArmed += 1
        let number = timersArmed
        let task = Task { [weak self, clock = settings.clock] in
            try? await clock.sleep(until: deadline)
            guard !Task.isCancelled else { return }
            await self?.woke(timer, number: number)
        }
        timers[timer] = (number, task)
    }

    private func woke(_ timer: GameMachine.Timer, number: Int) async {
        guard timers[timer]?.number == number else { return }
        timers[timer] = nil
        await run(.timerFired(timer))
    }
}
