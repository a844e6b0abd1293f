import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// What a game is told, what it asks for, and the phases it goes through.
extension GameMachine {
    /// What the game is told, each with the instant it happened.
    enum Event: Hashable, Sendable {
        /// The game starts: the side to move's clock runs, and both players are told.
        case begin
        /// The game is resumed from storage after a restart.
        case resume
        /// `side` plays `text`, read from the socket at `readAt` (`nil`: now).
        case move(String, by: Side, requestID: RequestID?, readAt: ContinuousClock.Instant?)
        /// The move asked for by `.storeMove` is stored.
        case moveStored
        /// It could not be stored; `refused`: storage says the game is not this node's.
        case moveStoreFailed(refused: Bool)
        /// The moves asked to be removed by `.removeMoves` are gone from storage.
        case movesRemoved
        /// They could not be removed.
        case moveRemovalFailed
        /// `side` gives up.
        case resign(Side, requestID: RequestID?)
        /// `side` offers their opponent `offer`, or accepts the opponent's standing offer.
        case offer(Offer, by: Side, requestID: RequestID?)
        /// `side` declines the opponent's standing offer.
        case decline(Offer, by: Side, requestID: RequestID?)
        /// A player is back, on this connection.
        case rejoin(Side, Outbox)
        /// A player's connection went away.
        case left(Side, Outbox)
        /// A connection starts watching the game.
        case watch(Outbox, requestID: RequestID?)
        /// A connection stops watching (or closed).
        case unwatch(Outbox)
        /// A timer asked for by `.arm` woke.
        case timerFired(Timer)
        /// The result asked for by `.storeResult` is stored, with both players' ratings before
        /// and after it (none if unrated).
        case resultStored([Side: RatingChange])
        /// It could not be stored; `refused`: storage says the game is not this node's.
        case resultStoreFailed(refused: Bool)
        /// The server stops: the game stays as stored, and resumes at the next start.
        case halt
        /// The server stops in order: as `halt`, and the clocks as they stand are stored, so that
        /// the game resumes with the time used until now charged and none after.
        case stop
        /// Another node hosts the game now: it is let go here, neither ended nor rated.
        case handOver
    }

    /// What the game waits for without anyone sending anything.
    enum Timer: Hashable, Sendable {
        /// By when the side to move's time runs out.
        case flag
        /// The end of the first-move limit: a side that has not moved by then aborts the game.
        case abort
        /// The end of a side's grace period after their connection went away.
        case absence(Side)
        /// The next attempt to store the result.
        case finishRetry
    }

    /// What the caller does for the game, in the order given.
    enum Action: Hashable, Sendable {
        /// Stores the move as ply `ply`, with both clocks after it; answer `.moveStored` or
        /// `.moveStoreFailed`.
        case storeMove(ply: Int, move: Move, clocks: Clocks)
        /// Removes the stored moves after ply `after` (a takeback); answer `.movesRemoved` or
        /// `.moveRemovalFailed`.
        case removeMoves(after: Int)
        /// Stores the clocks as a planned stop leaves them, after `ply` plies.
        case storeStopClocks(ply: Int, clocks: Clocks)
        /// Stores the result, rating it if `rated`; answer `.resultStored` or `.resultStoreFailed`.
        case storeResult(Outcome, rated: Bool)
        /// Sends a message on a connection, answering the request `id`, if any.
        case send(ServerMessage, to: Outbox, id: RequestID?)
        /// Sends the watchers the same line, encoded once.
        case sendWatched(ServerMessage, to: [Outbox])
        /// Sends `.timerFired` at `at`, replacing the timer of that kind armed already.
        case arm(Timer, at: ContinuousClock.Instant)
        /// The timer is not wanted any more.
        case cancel(Timer)
        /// The request that brought the event (a move, a resignation, a watch) fails with this.
        case reject(ProtocolError)
        /// Storage said the game is not this node's: the lobby finds where it went.
        case refused
        /// The game is over, its result stored and announced: the lobby lets it go.
        case ended
        /// Logs an error.
        case logError(String)
        /// The game is let go to another node, leaving these to the lobby.
        case handedOver(Game.HandedOver)
    }

    /// Where the game is.
    enum Phase: Hashable, Sendable {
        /// Moves are played, and the side to move's clock runs (once the game has begun).
        case playing
        /// Resumed after a restart: moves are played, but no clock runs until both players are back.
        case paused
        /// A move is being stored: another is refused, and what else comes waits in it.
        case storing(StoringMove)
        /// Moves taken back are being removed from storage: moves, offers and resignations are
        /// refused meanwhile, and no clock runs.
        case takingBack(TakingBack)
        /// The game ended: its result is being stored (or is tried again).
        case finishing(Ending)
        /// The result is stored and announced.
        case over
        /// The server is stopping: the game stays as stored. `unfinished`: the result being
        /// stored then.
        case halted(unfinished: Ending?)
        /// Another node hosts the game now.
        case handedOver
    }

    /// A move read and being stored.
    struct StoringMove: Hashable, Sendable {
        var side: Side
        var requestID: RequestID?
        var move: Move
        var ply: Int
        /// The position after it.
        var next: Position
        var converted: Bitboard
        /// Both clocks after it, stopped: the mover's charged up to `stoppedAt`, increment added.
        var clock: GameClock
        /// When the mover's clock stopped: when the move was read.
        var stoppedAt: ContinuousClock.Instant
        /// The game was paused when the move came (or is still, if a player came back since).
        var paused: Bool
        /// The abort timer woke meanwhile: looked at again once the move is stored (or not).
        var abortDue = false
        /// An end that came meanwhile: the move was read first, so it counts (or fails) before
        /// the end is played out.
        var endDue: DueEnd?
    }

    /// A takeback agreed and being stored.
    struct TakingBack: Hashable, Sendable {
        /// How many plies go.
        var plies: Int
        /// The request of the player who accepted it.
        var requestID: RequestID?
        /// The side that accepted it.
        var accepter: Side
        /// The game was paused when it was agreed.
        var paused: Bool
    }

    /// An end that waits for the move being stored.
    enum DueEnd: Hashable, Sendable {
        case resignation(Side, RequestID?)
        case abandonment(Side)
    }

    /// A result being stored.
    struct Ending: Hashable, Sendable {
        var outcome: Outcome
        var rated: Bool
        /// The request each side's `end` answers (a resignation's).
        var requestIDs: [Side: RequestID?]
        /// Failed attempts to store it so far.
        var failures = 0

        /// A resignation storage has not taken yet: if the game is handed over meanwhile, its
        /// new host plays it.
        var unstoredResignation: Game.Resignation? {
            guard failures > 0, outcome.reason == .resignation, let winner = outcome.winner else {
                return nil
            }
            return Game.Resignation(side: winner.opponent, requestID: requestIDs[winner.opponent] ?? nil)
        }
    }
}
