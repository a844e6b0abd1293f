import NanashiCore
import NanashiProtocol

/// Draw offers and takebacks: one side offers, the other accepts by offering the same, declines,
/// or moves (and the offer lapses). A takeback, in casual games only, takes back the last move of
/// the side that asked (and the reply after it, if any); the clocks stay as they were.
extension GameMachine {
    /// The refusal of a request while a takeback is stored.
    static let takingBackNow = ProtocolError(.badRequest, "a takeback is being stored; ask again once it is")

    /// Moves a side makes between two offers of the same thing.
    static let movesBetweenOffers = 10

    /// `side` offers `offer`, or accepts the opponent's standing one.
    mutating func make(_ offer: Offer, by side: Side, requestID: RequestID?, at now: ContinuousClock.Instant)
        -> [Action]
    {
        guard isLive else { return [.reject(over)] }
        if case .storing = phase {
            return [
                .reject(ProtocolError(.badRequest, "a move is being stored; offer again once it is played"))
            ]
        }
        if case .takingBack = phase { return [.reject(Self.takingBackNow)] }
        if offer == .takeback {
            guard !isRated else {
                return [.reject(ProtocolError(.badRequest, "takebacks are for casual games"))]
            }
            // Without a move of one's own, only to accept the opponent's takeback.
            let accepting = standingOffer.map { $0 == (.takeback, side.opponent) } ?? false
            guard moves(of: side, since: 0) > 0 || accepting else {
                return [.reject(ProtocolError(.badRequest, "you have no move to take back"))]
            }
        }
        switch standingOffer {
        case (offer, side.opponent)?:
            standingOffer = nil
            if offer == .takeback {
                return takeBack(for: side.opponent, acceptedBy: side, requestID: requestID, at: now)
            }
            return finish(winner: nil, reason: .agreement, requestIDs: [side: requestID])
        case (offer, side)?:
            return [.reject(ProtocolError(.badRequest, "your \(offer.rawValue) offer stands"))]
        default:
            break
        }
        if let last = lastOffers[offer]?[side], moves(of: side, since: last) < Self.movesBetweenOffers {
            let left = Self.movesBetweenOffers - moves(of: side, since: last)
            return [
                .reject(
                    ProtocolError(
                        .rateLimited,
                        "you may offer a \(offer.rawValue) again after \(left) more move\(left == 1 ? "" : "s") of yours"
                    ))
            ]
        }
        standingOffer = (offer, side)
        lastOffers[offer, default: [:]][side] = moves.count
        var actions: [Action] = []
        if let outbox = outboxes[side] {
            actions.append(.send(.offered(offer, game: id), to: outbox, id: requestID))
        }
        if let outbox = outboxes[side.opponent] {
            actions.append(.send(.offerMade(offer, game: id), to: outbox, id: nil))
        }
        return actions
    }

    /// `side` declines the opponent's standing `offer`: both are told.
    mutating func decline(_ offer: Offer, by side: Side, requestID: RequestID?) -> [Action] {
        guard isLive else { return [.reject(over)] }
        guard case (offer, side.opponent)? = standingOffer else {
            return [.reject(ProtocolError(.badRequest, "no \(offer.rawValue) offer to decline"))]
        }
        standingOffer = nil
        var actions: [Action] = []
        if let outbox = outboxes[side] {
            actions.append(.send(.declined(offer, game: id), to: outbox, id: requestID))
        }
        if let outbox = outboxes[side.opponent] {
            actions.append(.send(.declined(offer, game: id), to: outbox, id: nil))
        }
        return actions
    }

    /// `requester`'s takeback is agreed: their last move goes (and the reply after it), once
    /// storage has let it go; no clock runs meanwhile.
    private mutating func takeBack(
        for requester: Side, acceptedBy accepter: Side, requestID: RequestID?, at now: ContinuousClock.Instant
    ) -> [Action] {
        let plies = position.sideToMove == requester ? 2 : 1
        let paused = isPaused
        clock.stop(at: now)
        phase = .takingBack(
            TakingBack(plies: plies, requestID: requestID, accepter: accepter, paused: paused))
        return cancel(.flag) + [.removeMoves(after: moves.count - plies)]
    }

    /// The moves taken back are gone from storage: the game goes on from before them, both
    /// players and the watchers get it whole, and the side to move's clock runs again.
    mutating func movesRemoved(at now: ContinuousClock.Instant) -> [Action] {
        guard case .takingBack(let taken) = phase else { return [] }
        moves.removeLast(taken.plies)
        // The moves left were played already: replaying them cannot fail.
        position = (try? start.replaying(moves.map(\.description)).position) ?? position
        phase = taken.paused ? .paused : .playing
        if !taken.paused { clock.start(position.sideToMove, at: now) }
        var actions: [Action] = Side.allCases.compactMap { side in
            outboxes[side].map {
                .send(
                    .game(state(for: side, at: now)), to: $0,
                    id: side == taken.accepter ? taken.requestID : nil)
            }
        }
        actions += sendWatchers(.watching(watched(at: now)))
        if !taken.paused { actions += armFlag() }
        return actions
    }

    /// The moves could not be removed: the game goes on as it was.
    mutating func moveRemovalFailed(at now: ContinuousClock.Instant) -> [Action] {
        guard case .takingBack(let taken) = phase else { return [] }
        phase = taken.paused ? .paused : .playing
        var actions: [Action] = []
        if !taken.paused {
            clock.start(position.sideToMove, at: now)
            actions += armFlag()
        }
        return actions + [
            .reject(
                ProtocolError(.internalError, "the takeback could not be stored; the game goes on as it was"))
        ]
    }

    /// How many of the moves from ply `ply` on `side` made (passes too); none from a ply past
    /// the moves (a takeback has taken it back since).
    private func moves(of side: Side, since ply: Int) -> Int {
        let first = moves.count.isMultiple(of: 2) ? position.sideToMove : position.sideToMove.opponent
        return (min(ply, moves.count)..<moves.count).count {
            ($0.isMultiple(of: 2) ? first : first.opponent) == side
        }
    }

    /// The opponent's offer that stands for `side`, told again to a player who is back.
    func offerStanding(for side: Side) -> [Action] {
        guard let (offer, by) = standingOffer, by == side.opponent, let outbox = outboxes[side] else {
            return []
        }
        return [.send(.offerMade(offer, game: id), to: outbox, id: nil)]
    }
}
