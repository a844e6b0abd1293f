import Foundation
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// Players and watchers here in games other nodes host: their requests relayed to the host.
extension Lobby {
    // MARK: Players on several nodes

    /// A player logged in here: if another node hosts their game, it is told to send it here;
    /// if no live node hosts it, this node takes it over.
    func attachElsewhere(_ playerID: Int64, cluster: any Cluster) async {
        let found: (game: Int64, side: Side, host: Int64?)?
        do {
            found = try await cluster.unfinishedGame(of: playerID, aliveAfter: aliveAfter)
        } catch {
            logger.error("looking up the game of player \(playerID) failed: \(error)")
            return
        }
        guard let found else {
            crossing.seats[playerID] = nil
            return
        }
        guard let host = found.host else {
            // Its host stopped or died: this node takes it over, this player's side included.
            await takeOverGames(ids: [found.game])
            return
        }
        guard host != cluster.node else { return }
        crossing.seats[playerID] = RelayedSeat(
            game: found.game, side: found.side, host: host, cluster: cluster)
        cluster.send(
            .present(game: found.game, side: found.side, player: playerID, node: cluster.node), to: host)
    }

    /// This node listens again after its connection to the database was lost, and may have
    /// missed lines meanwhile: each player and watcher here of a game hosted elsewhere gets the
    /// game afresh from its host. The other nodes are told too, since what this node sent them
    /// while they were not listening (the same outage may have cut them off) was lost as well.
    func listeningAgain() {
        guard let cluster else { return }
        // A host's `listening` may have been missed as well.
        sendUnansweredAgain(to: nil)
        presentAgain(to: nil, cluster: cluster)
        cluster.send(.listening(node: cluster.node), to: nil)
    }

    /// Tells the hosts of games played or watched here (`host`'s only, or every one) who of this
    /// node's players and watchers are in them, as if they had just come: each gets the game
    /// afresh.
    func presentAgain(to host: Int64?, cluster: any Cluster) {
        for (player, seat) in crossing.seats
        where connections[player] != nil && (host == nil || seat.host == host) {
            cluster.send(
                .present(game: seat.game, side: seat.side, player: player, node: cluster.node), to: seat.host)
        }
        for (watcher, watching) in crossing.watchers {
            for (game, watch) in watching.games where host == nil || watch.host == host {
                cluster.send(
                    .watch(game: game, watcher: watcher, id: nil, node: cluster.node), to: watch.host)
            }
        }
    }

    /// Sends the moves and resignations of players here still unanswered by their hosts
    /// (`host`'s only, or every one) again: the host may not have been listening when they were
    /// sent. A host that had them plays them once.
    func sendUnansweredAgain(to host: Int64?) {
        for seat in crossing.seats.values where host == nil || seat.host == host {
            if let unanswered = seat.unanswered { seat.send(unanswered) }
        }
    }

    /// A player's connection here closed: the host of their game, if another node, is told.
    func detachElsewhere(_ playerID: Int64) {
        guard let cluster, let seat = crossing.seats[playerID] else { return }
        cluster.send(.absent(game: seat.game, side: seat.side, node: cluster.node), to: seat.host)
    }

    /// The seat of a player here in game `id` hosted elsewhere.
    ///
    /// - Throws: `failure` if there is none.
    func relayedSeat(_ id: Int64, of playerID: Int64, failing failure: ProtocolError) throws(ProtocolError)
        -> RelayedSeat
    {
        guard let seat = crossing.seats[playerID], seat.game == id else { throw failure }
        return seat
    }

    /// Forwards the move of a player here to the host of their game `id`, which answers it.
    ///
    /// - Throws: `failure` if another node hosts no game of theirs with that id; `illegalMove`
    ///   for what is not a move at all.
    func relayMove(
        _ move: String, game id: Int64, of playerID: Int64, requestID: RequestID?,
        failing failure: ProtocolError
    ) throws(ProtocolError) {
        let seat = try relayedSeat(id, of: playerID, failing: failure)
        let sent = try seat.play(move, player: playerID, requestID: requestID, relay: nextRelay())
        crossing.seats[playerID]?.unanswered = sent
    }

    /// Forwards the resignation of a player here to the host of their game `id`.
    ///
    /// - Throws: `failure` if another node hosts no game of theirs with that id.
    func relayResignation(
        game id: Int64, of playerID: Int64, requestID: RequestID?, failing failure: ProtocolError
    )
        throws(ProtocolError)
    {
        let seat = try relayedSeat(id, of: playerID, failing: failure)
        let sent = seat.resign(player: playerID, requestID: requestID, relay: nextRelay())
        crossing.seats[playerID]?.unanswered = sent
    }

    /// Forwards an offer (its acceptance, or the decline of the opponent's) of a player here to
    /// the host of their game `id`.
    ///
    /// - Throws: `failure` if another node hosts no game of theirs with that id.
    func relayOffer(
        _ offer: Offer, declines: Bool, game id: Int64, of playerID: Int64, requestID: RequestID?,
        failing failure: ProtocolError
    ) throws(ProtocolError) {
        let seat = try relayedSeat(id, of: playerID, failing: failure)
        let sent = seat.offer(
            offer, declines: declines, player: playerID, requestID: requestID, relay: nextRelay())
        crossing.seats[playerID]?.unanswered = sent
    }

    /// The number of the next move or resignation this node relays.
    func nextRelay() -> Int64 {
        crossing.lastRelay += 1
        return crossing.lastRelay
    }

    /// The host of a player's game changed while their last move or resignation, forwarded to
    /// the old host, had no answer: it died with that host (stored or not). The player is told
    /// so, before the new host sends the game as stored.
    func answerLostRequest(of playerID: Int64) {
        guard let lost = crossing.seats[playerID]?.unanswered else { return }
        crossing.seats[playerID]?.unanswered = nil
        connections[playerID]?.outbox.send(.error(Self.lostRequest), id: lost.requestID)
    }

    /// A message to another node was dropped (the database refused it, or the queue to the
    /// other nodes was full): the player or watcher here who sent a request is answered
    /// `internal_error`; a watcher there who missed a line of a game hosted here is let go.
    func dropped(_ message: NodeMessage, to node: Int64?) async {
        switch message {
        case .move(_, _, let player, _, let id, _, _), .resign(_, _, let player, let id, _, _),
            .offer(_, _, let player, _, _, let id, _, _):
            guard crossing.seats[player]?.unanswered == message else { return }
            crossing.seats[player]?.unanswered = nil
            connections[player]?.outbox.send(.error(Self.unsentRequest), id: id)
        case .rematch(_, let player, let id, _):
            connections[player]?.outbox.send(.error(Self.unsentRequest), id: id)
        case .watch(let game, let watcher, let id, _):
            guard let outbox = crossing.watchers[watcher]?.outbox,
                let watch = crossing.watchers[watcher]?.games.removeValue(forKey: game)
            else { return }
            watch.end()
            if crossing.watchers[watcher]?.games.isEmpty == true { crossing.watchers[watcher] = nil }
            outbox.send(.error(Self.unsentRequest), id: id)
        case .line(.watcher(let watcher), _):
            guard let cluster, let node else { return }
            let key = CrossNodeGames.RemoteWatcher(node: node, watcher: watcher)
            for (id, watchers) in crossing.remoteWatchers {
                guard let outbox = watchers[key] else { continue }
                crossing.remoteWatchers[id]?[key] = nil
                await games[id]?.unwatch(outbox)
                cluster.send(.watchEnded(game: id, watcher: watcher), to: node)
            }
        default:
            logger.error("a message to another node was dropped: \(message)")
        }
    }

    static let unsentRequest = ProtocolError(
        .internalError, "the server holding this game could not be told; try again")

    static let lostRequest = ProtocolError(
        .internalError,
        "the server holding this game stopped before answering; the game goes on from its stored moves, sent next: "
            + "play again if your move is not among them")

    // MARK: Watching a game hosted elsewhere

    /// A connection here watches a game another node hosts: the host sends it `watching`, then
    /// the game's lines.
    func watchElsewhere(_ id: Int64, outbox: Outbox, requestID: RequestID?) async throws -> RelayedWatch {
        guard let cluster, let host = try await cluster.host(ofGame: id, aliveAfter: aliveAfter),
            host != cluster.node
        else { throw ProtocolError(.noSuchGame, "no game \(id) is in progress") }
        return follow(id, on: host, outbox: outbox, requestID: requestID, cluster: cluster)
    }

    /// A connection here watches game `id` on `host`, which sends it `watching` (answering
    /// `requestID`), then the game's lines.
    func follow(_ id: Int64, on host: Int64, outbox: Outbox, requestID: RequestID?, cluster: any Cluster)
        -> RelayedWatch
    {
        let watch = crossing.watchers[outbox.id]?.games[id] ?? RelayedWatch(game: id, host: host, lobby: self)
        watch.host = host
        crossing.watchers[outbox.id, default: (outbox, [:])].games[id] = watch
        cluster.send(.watch(game: id, watcher: outbox.id, id: requestID, node: cluster.node), to: host)
        return watch
    }

    /// What a connection here watches as game `id` once the game it watched here was handed
    /// over: the game taken again here, or the watch relayed to its new host.
    func followed(_ id: Int64, by outbox: Outbox) -> (any Spectated)? {
        if let game = games[id] { return game }
        return crossing.watchers[outbox.id]?.games[id]
    }

    func unwatchElsewhere(_ id: Int64, outbox: Outbox) {
        guard let cluster, let watch = crossing.watchers[outbox.id]?.games.removeValue(forKey: id) else {
            return
        }
        if crossing.watchers[outbox.id]?.games.isEmpty == true { crossing.watchers[outbox.id] = nil }
        cluster.send(.unwatch(game: id, watcher: outbox.id, node: cluster.node), to: watch.host)
    }

    /// The `live` list of every node, from the database.
    func liveEverywhere(limit: Int, cluster: any Cluster) async -> [LiveGame] {
        do {
            return try await cluster.liveGames(limit: limit, aliveAfter: aliveAfter)
        } catch {
            logger.error("reading the live games failed: \(error)")
            return []
        }
    }

}
