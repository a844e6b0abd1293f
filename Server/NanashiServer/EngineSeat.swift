import Foundation
import Logging
import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiTransport
import Synchronization

/// The built-in engine as a player of one game: it sits where a player's connection would, so the
/// game treats it as any player (the same `start`, `moved` and `game` lines, the same clocks, the
/// same checks of its moves), and answers each turn with a search on the engine pool.
///
/// Its outbox reads the lines the game sends it: one with `legal` moves is its turn. The search
/// runs on the pool's threads; the move is then played like a player's, read at the moment the
/// search ended, so the engine's clock counts its time in the queue and in the search.
final class EngineSeat: Sendable {
    let level: Level
    let side: Side
    /// Never a connection's id (those count up from 0).
    let id: Int
    /// The game it plays.
    let game: Int64
    /// Whose searches these are in the pool's turns: the address of the player it plays.
    let owner: String
    private let pool: EnginePool
    private let clock: any ServerClock
    private let logger: Logger
    private let state = Mutex(State())

    private struct State: Sendable {
        var game: Game?
        /// The ply of the last turn a search was started for (0 for the first move).
        var searchedPly = -1
        var increments = Clocks(x: 0, o: 0)
        /// Counts the takebacks: a search started before one plays nothing.
        var takebacks = 0
    }

    init(
        level: Level, side: Side, game: Int64, owner: String = "", pool: EnginePool,
        clock: any ServerClock, logger: Logger
    ) {
        self.level = level
        self.side = side
        self.game = game
        self.owner = owner
        self.id = -Int(truncatingIfNeeded: game) - 1
        self.pool = pool
        self.clock = clock
        self.logger = logger
    }

    /// What the game sends the engine to.
    var outbox: Outbox { Outbox(id: id) { [self] event in received(event) } }

    /// Takes its seat in `game`, before the game begins or is rejoined.
    func seat(in game: Game) {
        state.withLock { $0.game = game }
    }

    private func received(_ event: Outbox.Event) {
        guard case .line(let line) = event, let reply = try? Wire.reply(fromLine: Array(line.utf8)) else {
            return
        }
        switch reply.message {
        case .start(let start):
            let initial = start.control.initialMilliseconds
            let increment = start.control.incrementMilliseconds
            state.withLock { $0.increments = Clocks(x: increment, o: increment) }
            turn(ply: 0, fen: start.fen, legal: start.legal, clocks: Clocks(x: initial, o: initial))
        case .moved(let moved):
            turn(ply: moved.ply, fen: moved.fen, legal: moved.legal, clocks: moved.clock)
        case .game(let game):
            let increment = game.control.incrementMilliseconds
            state.withLock { state in
                state.increments = Clocks(x: increment, o: increment)
                // Fewer moves than searched for: moves were taken back, and the turns after them
                // are to be searched again.
                if game.moves.count <= state.searchedPly {
                    state.searchedPly = game.moves.count - 1
                    state.takebacks += 1
                }
            }
            turn(ply: game.moves.count, fen: game.fen, legal: game.legal, clocks: game.clock)
        case .offerMade(let offer, _):
            answer(offer)
        case .end:
            // The game is over: let it go, and its search with it.
            state.withLock { $0.game = nil }
            pool.stop(game: game)
        default:
            break
        }
    }

    /// The engine grants a takeback (its games are casual: a person learning asks for one) and
    /// declines a draw (it plays every game out).
    private func answer(_ offer: Offer) {
        guard let game = state.withLock({ $0.game }) else { return }
        let (side, logger) = (side, logger)
        Task {
            do {
                switch offer {
                case .takeback: try await game.make(.takeback, by: side, requestID: nil)
                case .draw: try await game.decline(.draw, by: side, requestID: nil)
                }
            } catch {
                logger.debug(
                    "game \(game.id): the engine's answer to a \(offer.rawValue) offer failed: \(error)")
            }
        }
    }

    /// The engine's turn, if `legal` says so and no search for this ply has started yet.
    private func turn(ply: Int, fen: String, legal: [Move]?, clocks: Clocks) {
        guard let legal, !legal.isEmpty, let position = try? Position(fen: fen) else { return }
        let (game, increments, takebacks) = state.withLock { state -> (Game?, Clocks, Int) in
            guard ply > state.searchedPly else { return (nil, state.increments, state.takebacks) }
            state.searchedPly = ply
            return (state.game, state.increments, state.takebacks)
        }
        guard let game else { return }
        let gameClock = SearchLimits.Clock(
            own: .milliseconds(clocks[side]), opponent: .milliseconds(clocks[side.opponent]),
            ownIncrement: .milliseconds(increments[side]),
            opponentIncrement: .milliseconds(increments[side.opponent]))
        let (pool, level, side, clock, logger, owner) = (pool, level, side, clock, logger, owner)
        // A search still queued when the game ends (resigned, lost on time) is not made.
        let wanted: @Sendable () -> Bool = { [weak self] in
            self?.state.withLock { $0.game != nil && $0.takebacks == takebacks } ?? false
        }
        Task {
            let move = await pool.move(
                for: position, level: level, clock: gameClock, owner: owner, game: game.id, wanted: wanted)
            // Searched for a position a takeback has since undone: not to be played.
            guard wanted() else { return }
            // A store that failed is tried again, as a person would play the move again.
            for attempt in 1...3 {
                do {
                    try await game.play(move.description, by: side, requestID: nil, readAt: clock.now)
                    return
                } catch let error as ProtocolError where error.code == .internalError && attempt < 3 {
                    try? await clock.sleep(for: .seconds(attempt))
                } catch {
                    // Over meanwhile (resigned, abandoned, the server stopping): nothing to do.
                    logger.debug("game \(game.id): the engine's move \(move) was not played: \(error)")
                    return
                }
            }
        }
    }
}
