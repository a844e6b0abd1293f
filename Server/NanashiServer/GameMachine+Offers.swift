import NanashiCore
import NanashiProtocol

/// Draw offers: one side offers, the other accepts by offering the same, declines, or moves
/// (and the offer lapses).
extension GameMachine {
    /// Moves a side makes between two offers of the same thing.
    static let movesBetweenOffers = 10

    /// `side` offers `offer`, or accepts the opponent's standing one.
    mutating func make(_ offer: Offer, by side: Side, requestID: RequestID?) -> [Action] {
        guard isLive else { return [.reject(over)] }
        if case .storing = phase {
            return [
                .reject(ProtocolError(.badRequest, "a move is being stored; offer again once it is played"))
            ]
        }
        switch standingOffer {
        case (offer, side.opponent)?:
            standingOffer = nil
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

    /// How many of the moves from ply `ply` on `side` made (passes too).
    private func moves(of side: Side, since ply: Int) -> Int {
        let first = moves.count.isMultiple(of: 2) ? position.sideToMove : position.sideToMove.opponent
        return (ply..<moves.count).count { ($0.isMultiple(of: 2) ? first : first.opponent) == side }
    }

    /// The opponent's offer that stands for `side`, told again to a player who is back.
    func offerStanding(for side: Side) -> [Action] {
        guard let (offer, by) = standingOffer, by == side.opponent, let outbox = outboxes[side] else {
            return []
        }
        return [.send(.offerMade(offer, game: id), to: outbox, id: nil)]
    }
}
