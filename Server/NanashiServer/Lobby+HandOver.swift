import Foundation
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage

/// Games handed from node to node: taken over from a node taken for dead, refused by storage.
extension Lobby {
    // MARK: A game taken over from this live node

    /// Another node took over game `id`, which this node still holds (its heartbeat came late,
    /// and it was taken for dead): the game is let go here without ending or rating it, and its
    /// players here get seats relayed to `host`, as players on a node other than the host, and
    /// its watchers here watch it there. The caller sends the players' `present`, then
    /// `resignElsewhere` of what this returns: a resignation the game had not stored here.
    func handOver(_ id: Int64, to host: Int64, cluster: any Cluster) async -> (Game, Game.Resignation)? {
        guard let game = games[id] else { return nil }
        letGo(game)
        // Their nodes heard `hosted` too, and follow the game to its new host.
        crossing.remoteSides[id] = nil
        crossing.held[id] = nil
        crossing.relaysPlayed[id] = nil
        let elsewhere = Set((crossing.remoteWatchers.removeValue(forKey: id) ?? [:]).values.map(\.id))
        for (side, player) in game.players where connections[player.id] != nil {
            crossing.seats[player.id] = RelayedSeat(game: id, side: side, host: host, cluster: cluster)
        }
        logger.warning("game \(id) is hosted by node \(host) now: let go here")
        let handedOver = await game.handOver()
        for watcher in handedOver.watchers where !elsewhere.contains(watcher.id) {
            _ = follow(id, on: host, outbox: watcher, requestID: nil, cluster: cluster)
        }
        return handedOver.resignation.map { (game, $0) }
    }

    /// A player here resigned game `game` as it was handed over, and it was not stored: the
    /// resignation goes to the game's host (after the player's `present`), which plays it and
    /// answers it. (A player no longer here has no seat: their absence plays out there.)
    func resignElsewhere(_ resignation: Game.Resignation, of game: Game) {
        guard let player = game.players[resignation.side]?.id else { return }
        try? relayResignation(
            game: game.id, of: player, requestID: resignation.requestID,
            failing: ProtocolError(.noSuchGame, "no seat"))
    }

    /// Takes a game this node no longer hosts off the books, without ending it.
    func letGo(_ game: Game) {
        guard games[game.id] === game else { return }
        games[game.id] = nil
        for player in game.players.values where gameOf[player.id] === game { gameOf[player.id] = nil }
    }

    /// Storage refused a move or the result of a game held here, for it is no longer this
    /// node's (`game.host`), or holds another move at that ply (one whose commit's answer was
    /// lost, and which the player then played differently): if another live node hosts it, the
    /// game is let go here and its players here are relayed there; if this node does, or no
    /// live node, this node resumes it again as storage holds it; if it ended meanwhile, its
    /// players and watchers get its `end` as stored.
    func refused(_ game: Game) async {
        guard let cluster, games[game.id] === game else { return }
        let host: Int64?
        do {
            host = try await cluster.host(ofGame: game.id, aliveAfter: aliveAfter)
        } catch {
            logger.error("looking up the host of game \(game.id) failed: \(error)")
            return
        }
        guard games[game.id] === game else { return }
        if let host, host != cluster.node {
            let unstored = await handOver(game.id, to: host, cluster: cluster)
            for (side, player) in game.players where crossing.seats[player.id]?.game == game.id {
                cluster.send(
                    .present(game: game.id, side: side, player: player.id, node: cluster.node), to: host)
            }
            if let (game, resignation) = unstored { resignElsewhere(resignation, of: game) }
            return
        }
        // Hosted here or by no live node, or ended: what storage holds is the game, not this copy.
        let elsewhere = Set((crossing.remoteWatchers[game.id] ?? [:]).values.map(\.id))
        let handedOver = await game.handOver()
        letGo(game)
        if host == cluster.node {
            await resumeHosted([game.id], cluster: cluster)
        } else {
            await takeOverGames(ids: [game.id])
        }
        if let again = games[game.id] {
            // Its watchers here watch it again (those elsewhere follow it when told `hosted`).
            for watcher in handedOver.watchers where !elsewhere.contains(watcher.id) {
                try? await again.watch(watcher, requestID: nil)
            }
            // A resignation refused with the old copy is the player's still.
            if let resignation = handedOver.resignation {
                try? await again.resign(resignation.side, requestID: resignation.requestID)
            }
            return
        }
        let watchers = handedOver.watchers
        // Ended by another node: its players and watchers, here and on other nodes, get the end
        // that node sent, as stored. A player's node takes the end as the game's end for them
        // (so that they may seek at once), and hears that it ended after it, as a watcher's
        // node after the watcher's end (a node's messages arrive in order): it would drop the
        // end otherwise, as one the player had already.
        logger.warning("game \(game.id) was ended by another node: let go here")
        let stored = await storedEnd(of: game.id, cluster: cluster)
        let remoteSides = crossing.remoteSides.removeValue(forKey: game.id) ?? [:]
        crossing.relaysPlayed[game.id] = nil
        defer {
            for (side, remote) in remoteSides {
                guard let player = game.players[side]?.id else { continue }
                cluster.send(.ended(game: game.id, player: player), to: remote.node)
            }
        }
        if let stored {
            for (side, player) in game.players {
                let outbox = remoteSides[side]?.outbox ?? connections[player.id]?.outbox
                outbox?.send(
                    .end(GameEnd(game: game.id, outcome: stored.outcome, rating: stored.ratings[side]!)))
            }
            let line = Wire.line(Reply(.watchedEnd(WatchedEnd(game: game.id, outcome: stored.outcome))))
            for watcher in watchers { watcher.sendWatched(line) }
        }
        endedElsewhere(game)
    }

    /// How game `id` ended, as stored, if it did.
    func storedEnd(of id: Int64, cluster: any Cluster) async -> (
        outcome: Outcome, ratings: [Side: RatingChange]
    )? {
        do {
            return try await cluster.storedEnd(ofGame: id)
        } catch {
            logger.error("reading how game \(id) ended failed: \(error)")
            return nil
        }
    }

    /// A player on `node` asked for game `id`, which is not here. If it is over (another node
    /// ended it), they get its `end` as stored, answering `requestID` (their node takes it as
    /// the game's end for them, unless they had it already), then their node hears that it
    /// ended. If another live node hosts it (their node missed `hosted`), their node is told
    /// which, and asks there. If it is being taken over here, `hosted` follows, and `request`
    /// (their move or resignation) is held until their node presents them here; else their
    /// node hears that it ended for them, and they get `otherwise`.
    func answerGone(
        _ id: Int64, side: Side, player: Int64, node: Int64, requestID: RequestID?, otherwise: ProtocolError?,
        request: NodeMessage? = nil, cluster: any Cluster
    ) async {
        if let stored = await storedEnd(of: id, cluster: cluster) {
            let end = GameEnd(game: id, outcome: stored.outcome, rating: stored.ratings[side]!)
            cluster.send(
                .line(to: .player(player), text: Wire.line(Reply(.end(end), id: requestID))), to: node)
            cluster.send(.ended(game: id, player: player), to: node)
            return
        }
        let answer = otherwise.map { Wire.line(Reply(.error($0), id: requestID)) }
        switch await liveHost(of: id, cluster: cluster) {
        case cluster.node?:
            // Claimed here and being resumed: its `hosted` is on its way, their node presents
            // them again, and their request is answered then (or now, if that happened meanwhile).
            guard let request else { return }
            if games[id] != nil, crossing.remoteSides[id]?[side]?.node == node {
                await received(request)
            } else {
                crossing.held[id, default: [:]][side, default: []].append(request)
            }
        case let host?:
            cluster.send(.hosted(game: id, node: host), to: node)
        case nil:
            cluster.send(.ended(game: id, player: player), to: node)
            if let answer { cluster.send(.line(to: .player(player), text: answer), to: node) }
        }
    }

    /// A watcher on `node` asked for game `id`, which is not here: if another live node hosts
    /// it (their node missed `hosted`), their node is told which, and asks there; if it is being
    /// taken over here, `hosted` follows; else the watcher hears that it is not in progress.
    func watchGone(_ id: Int64, watcher: Int, requestID: RequestID?, node: Int64, cluster: any Cluster)
        async
    {
        switch await liveHost(of: id, cluster: cluster) {
        case cluster.node?:
            return
        case let host?:
            cluster.send(.hosted(game: id, node: host), to: node)
        case nil:
            let error = ProtocolError(.noSuchGame, "no game \(id) is in progress")
            cluster.send(
                .line(to: .watcher(watcher), text: Wire.line(Reply(.error(error), id: requestID))), to: node)
            cluster.send(.watchEnded(game: id, watcher: watcher), to: node)
        }
    }

    /// The live node hosting the unfinished game `id`, if any (`nil` too if storage cannot say).
    func liveHost(of id: Int64, cluster: any Cluster) async -> Int64? {
        do {
            return try await cluster.host(ofGame: id, aliveAfter: aliveAfter)
        } catch {
            logger.error("looking up the host of game \(id) failed: \(error)")
            return nil
        }
    }

}
