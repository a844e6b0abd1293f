import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// Challenges between players on several nodes: every node keeps every challenge (each made
/// or ended is told to all), tells its own players, and applies the same limits; the node that
/// made a challenge (its challenger's) starts its game, hosted there.
extension Lobby {
    /// Tells the other nodes of a challenge made here.
    func share(_ challenge: Challenges.Challenge) {
        guard let cluster else { return }
        cluster.send(.challenge(Self.record(challenge), node: cluster.node), to: nil)
    }

    /// Tells the other nodes that a challenge ended here.
    func shareEnd(of id: String, _ ending: String, reason: String? = nil) {
        guard let cluster else { return }
        cluster.send(.challengeEnded(id: id, ending: ending, reason: reason, node: cluster.node), to: nil)
    }

    /// Another node made a challenge: kept here, and told to the player challenged if here.
    func receivedChallenge(_ record: NodeChallenge, node: Int64) {
        guard node != cluster?.node else { return }
        let challenge = Challenges.Challenge(
            id: record.id,
            from: .init(id: record.fromID, name: record.fromName, rating: record.fromRating),
            to: record.toID.map { .init(id: $0, name: record.toName ?? "", rating: record.toRating ?? 0) },
            terms: ChallengeTerms(
                control: TimeControl(initial: record.initial, increment: record.increment),
                challengerSide: record.challengerSide, rated: record.rated,
                layout: record.layout.flatMap(Layout.named) ?? .standard,
                custom: record.fen.flatMap { try? Position(startingAt: $0) }),
            expires: settings.clock.now + Challenges.lifetime, node: node)
        challenges.insert(challenge)
        if let to = challenge.to { connections[to.id]?.outbox.send(.challenged(challenge.received)) }
    }

    /// A challenge ended on another node: gone here too, and its players here told.
    func receivedChallengeEnd(_ id: String, ending: String, reason: String?, node: Int64) {
        guard node != cluster?.node, let challenge = challenges.remove(id) else { return }
        switch ending {
        case "declined":
            if let to = challenge.to {
                challenges.noteDeclined(from: challenge.from.id, to: to.id, at: settings.clock.now)
            }
            connections[challenge.from.id]?.outbox.send(.challengeDeclined(challenge: id, reason: reason))
        case "accepted":
            break
        default:
            tellCancelled(challenge, ChallengeEnd(rawValue: ending) ?? .left)
        }
    }

    /// `player`, on `node`, accepts a challenge made here: its game starts, hosted here; if it
    /// cannot, they hear why, and the challenge stands again on their node.
    func receivedAccept(_ id: String, by player: Int64, node: Int64) async {
        guard let cluster else { return }
        let refusal: ProtocolError
        do throws(ProtocolError) {
            guard let row = (try? await storage.player(id: player)) ?? nil else {
                throw ProtocolError(.internalError, "the server failed; nothing changed")
            }
            let challenge = try challenges.accept(id, by: Self.challengePlayer(row))
            do {
                try await start(challenge, acceptorNode: node, cluster: cluster)
                return
            } catch {
                // Stands again, on their node too, unless it ended meanwhile.
                refusal = putBack(challenge, error)
                if let restored = challenges.standing[id] {
                    cluster.send(.challenge(Self.record(restored), node: cluster.node), to: node)
                }
            }
        } catch {
            refusal = error
        }
        cluster.send(.line(to: .player(player), text: Wire.line(Reply(.error(refusal)))), to: node)
    }

    /// Starts the game of a challenge made here and accepted on another node.
    private func start(_ challenge: Challenges.Challenge, acceptorNode: Int64, cluster: any Cluster)
        async throws(ProtocolError)
    {
        let challenger = challenge.from
        try await checkChallengerMayPlay(challenge)
        let side = challenge.terms.challengerSide ?? (Bool.random() ? .x : .o)
        guard let to = challenge.to else { return }
        let (xID, oID) = side == .x ? (challenger.id, to.id) : (to.id, challenger.id)
        try startingGame(of: [xID, oID])
        defer { startedGame(of: [xID, oID]) }
        try await takeSeeks(of: [challenger.id])
        let stored = try await storeGame(of: challenge, x: xID, o: oID)
        challenges.started(challenge.id)
        let pairing = SharedPairing(
            game: stored.game, control: challenge.terms.control, x: stored.x, o: stored.o,
            nodes: [side: cluster.node, side.opponent: acceptorNode], start: challenge.terms.start)
        shareEnd(of: challenge.id, "accepted")
        startShared(pairing, cluster: cluster, isRated: challenge.terms.rated)
    }

    /// Another node's player takes challenges, or refuses them.
    func receivedChallengeSetting(_ accepting: Bool, for player: Int64, node: Int64) {
        guard node != cluster?.node else { return }
        challenges.setAccepting(accepting, for: player)
    }

    private static func record(_ challenge: Challenges.Challenge) -> NodeChallenge {
        var record = NodeChallenge(
            id: challenge.id, fromID: challenge.from.id, fromName: challenge.from.name,
            fromRating: challenge.from.rating, toID: challenge.to?.id, toName: challenge.to?.name,
            toRating: challenge.to?.rating, initial: challenge.terms.control.initial,
            increment: challenge.terms.control.increment, challengerSide: challenge.terms.challengerSide,
            rated: challenge.terms.rated)
        record.layout = challenge.terms.layout.isStandard ? nil : challenge.terms.layout.name
        record.fen = challenge.terms.custom?.fen
        return record
    }
}
