import Foundation
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// What other nodes tell this one, and rematches of games across nodes.
extension Lobby {
    // MARK: Messages from other nodes

    /// Acts on a message from another node.
    func received(_ message: NodeMessage) async {
        guard let cluster else { return }
        switch message {
        case .started(let game, let player, let side, let host):
            crossing.seats[player] = RelayedSeat(game: game, side: side, host: host, cluster: cluster)
            crossing.sharedSeekers.remove(player)
            moveOn(player)
            sendSeeking(to: player)
            if connections[player] == nil {
                cluster.send(.absent(game: game, side: side, node: cluster.node), to: host)
            }
        case .line(.player(let player), let text):
            // The host is alive and answering.
            crossing.seats[player]?.unanswered = nil
            // The end of their game: over for them before they read it, so that they may seek
            // at once (the host's `ended` comes after the line). The end of a game they are not
            // in (any more) is one they had already: a host answering a `present` sent as the
            // game ended sends it again, as stored.
            if let ended = Self.endedGame(text) {
                guard let seat = crossing.seats[player], seat.game == ended else { return }
                crossing.seats[player] = nil
                crossing.lastGameHosts[player] = (seat.game, seat.host)
            }
            connections[player]?.outbox.sendLine(text)
        case .line(.watcher(let watcher), let text):
            crossing.watchers[watcher]?.outbox.sendWatched(text)
        case .ended(let game, let player):
            if let seat = crossing.seats[player], seat.game == game {
                crossing.seats[player] = nil
                crossing.lastGameHosts[player] = (game, seat.host)
            }
        case .watchEnded(let game, let watcher):
            crossing.watchers[watcher]?.games.removeValue(forKey: game)?.end()
            if crossing.watchers[watcher]?.games.isEmpty == true { crossing.watchers[watcher] = nil }
        case .left(let node):
            // Its games are hosted by nobody now: claimed here, unless another node is quicker.
            guard node != cluster.node else { return }
            Task { await takeOverGames() }
        case .challenge(let record, let node):
            receivedChallenge(record, node: node)
        case .challengeEnded(let id, let ending, let reason, let node):
            receivedChallengeEnd(id, ending: ending, reason: reason, node: node)
        case .acceptChallenge(let id, let player, let node):
            await receivedAccept(id, by: player, node: node)
        case .challengeSetting(let player, let accepting, let node):
            receivedChallengeSetting(accepting, for: player, node: node)
        case .loggedOut(let player, let digest, let node):
            guard node != cluster.node else { return }
            await closeSession(of: player, token: digest)
        case .loggedIn(let player, let node, let ticket):
            guard node != cluster.node else { return }
            if loginsInProgress[player] != nil {
                // A login here is drawing its ticket: compared once it has it.
                loginsElsewhere[player] = max(loginsElsewhere[player] ?? 0, ticket)
            }
            guard let older = connections[player]?.outbox, let here = loginTickets[player], here < ticket
            else { return }
            older.send(.superseded)
            older.close()
            await detach(player, outbox: older)
        case .hosted(let game, let node):
            // Watchers here follow the game to its new host (which may be this node).
            for (watcher, watching) in crossing.watchers {
                guard let watch = watching.games[game] else { continue }
                watch.host = node
                cluster.send(.watch(game: game, watcher: watcher, id: nil, node: cluster.node), to: node)
            }
            guard node != cluster.node else { return }
            // This node still holds it (it was taken for dead): it lets it go.
            let unstored = await handOver(game, to: node, cluster: cluster)
            for (player, seat) in crossing.seats where seat.game == game {
                if seat.host != node { answerLostRequest(of: player) }
                crossing.seats[player]?.host = node
                if connections[player] != nil {
                    cluster.send(
                        .present(game: game, side: seat.side, player: player, node: cluster.node), to: node)
                }
            }
            if let (game, resignation) = unstored { resignElsewhere(resignation, of: game) }
        case .move(let id, let side, let player, let move, let requestID, let node, let relay):
            guard let (game, outbox) = hostedSideOnce(id, side, player, node, relay, message, cluster) else {
                return
            }
            Task {
                do throws(ProtocolError) {
                    try await game.play(move, by: side, requestID: requestID)
                } catch {
                    outbox.send(.error(error), id: requestID)
                }
            }
        case .resign(let id, let side, let player, let requestID, let node, let relay):
            guard let (game, outbox) = hostedSideOnce(id, side, player, node, relay, message, cluster) else {
                return
            }
            Task {
                do throws(ProtocolError) {
                    try await game.resign(side, requestID: requestID)
                } catch {
                    outbox.send(.error(error), id: requestID)
                }
            }
        case .offer(let id, let side, let player, let offer, let declines, let requestID, let node, let relay):
            guard let (game, outbox) = hostedSideOnce(id, side, player, node, relay, message, cluster) else {
                return
            }
            Task {
                do throws(ProtocolError) {
                    if declines {
                        try await game.decline(offer, by: side, requestID: requestID)
                    } else {
                        try await game.make(offer, by: side, requestID: requestID)
                    }
                } catch {
                    outbox.send(.error(error), id: requestID)
                }
            }
        case .present(let id, let side, let player, let node):
            guard let game = games[id] else {
                // Not awaited: reading storage must not hold up this node's other messages.
                Task {
                    await answerGone(
                        id, side: side, player: player, node: node, requestID: nil, otherwise: nil,
                        cluster: cluster
                    )
                }
                return
            }
            guard game.players[side]?.id == player else {
                cluster.send(.ended(game: id, player: player), to: node)
                return
            }
            let outbox = remoteOutbox(to: node, for: .player(player), cluster: cluster)
            crossing.remoteSides[id, default: [:]][side] = (node, outbox)
            await game.rejoin(side, outbox: outbox)
            // What they asked while the game was taken over here is answered after the game.
            for request in crossing.held[id]?.removeValue(forKey: side) ?? [] { await received(request) }
        case .absent(let id, let side, let node):
            guard let game = games[id], let remote = crossing.remoteSides[id]?[side], remote.node == node
            else {
                return
            }
            await game.left(side, outbox: remote.outbox)
        case .watch(let id, let watcher, let requestID, let node):
            guard let game = games[id] else {
                // Not awaited, as for `present`.
                Task {
                    await watchGone(id, watcher: watcher, requestID: requestID, node: node, cluster: cluster)
                }
                return
            }
            let outbox = remoteOutbox(to: node, for: .watcher(watcher), cluster: cluster)
            let key = CrossNodeGames.RemoteWatcher(node: node, watcher: watcher)
            do throws(ProtocolError) {
                if let older = crossing.remoteWatchers[id]?[key] { await game.unwatch(older) }
                try await game.watch(outbox, requestID: requestID)
                crossing.remoteWatchers[id, default: [:]][key] = outbox
            } catch {
                outbox.send(.error(error), id: requestID)
                cluster.send(.watchEnded(game: id, watcher: watcher), to: node)
            }
        case .unwatch(let id, let watcher, let node):
            let key = CrossNodeGames.RemoteWatcher(node: node, watcher: watcher)
            if let outbox = crossing.remoteWatchers[id]?.removeValue(forKey: key) {
                await games[id]?.unwatch(outbox)
            }
        case .rematch(let id, let player, let requestID, let node):
            let outbox =
                crossing.rematchers[player].map(\.outbox)
                ?? remoteOutbox(to: node, for: .player(player), cluster: cluster)
            // The `end` may have reached the player before the game told the lobby it ended.
            if let game = games[id], game.side(of: player) != nil, await game.hasEnded { ended(game) }
            do throws(ProtocolError) {
                try await offerRematch(id, by: player, outbox: outbox, requestID: requestID)
            } catch {
                outbox.send(.error(error), id: requestID)
            }
        case .movedOn(let player, let node):
            guard crossing.rematchers[player]?.node == node else { return }
            crossing.rematchers[player] = nil
            moveOn(player)
        case .listening(let node):
            guard node != cluster.node else { return }
            // The moves it may have missed first: the game sent afresh then shows them.
            sendUnansweredAgain(to: node)
            presentAgain(to: node, cluster: cluster)
        }
    }

    /// The game whose `end` a line the host sent a player is, if it is one. Lines are encoded
    /// with sorted keys, so an `end` ends with its type: only such lines are decoded.
    static func endedGame(_ line: String) -> Int64? {
        guard line.hasSuffix(#""type":"end"}"#),
            case .end(let end)? = try? Wire.reply(fromLine: Array(line.utf8)).message
        else { return nil }
        return end.game
    }

    /// `hostedSide` for a move or resignation, number `relay` of `node`, which is recorded as
    /// played; `nil` for one played already (sent again, since this node was thought not to be
    /// listening).
    func hostedSideOnce(
        _ id: Int64, _ side: Side, _ player: Int64, _ node: Int64, _ relay: Int64, _ request: NodeMessage,
        _ cluster: any Cluster
    ) -> (Game, Outbox)? {
        if let last = crossing.relaysPlayed[id]?[side], last.node == node, last.relay >= relay { return nil }
        guard let hosted = hostedSide(id, side, player, node, request.requestID, request, cluster) else {
            return nil
        }
        crossing.relaysPlayed[id, default: [:]][side] = (node, relay)
        return hosted
    }

    /// The game hosted here and the outbox of `side`, if that side plays from `node`. If the
    /// game was taken over here and that side's node has not presented them yet, `request` is
    /// held until it does; else the player there hears that the game is not here (it ended, or
    /// moved).
    func hostedSide(
        _ id: Int64, _ side: Side, _ player: Int64, _ node: Int64, _ requestID: RequestID?,
        _ request: NodeMessage,
        _ cluster: any Cluster
    ) -> (Game, Outbox)? {
        let missing = ProtocolError(.noSuchGame, "you have no game \(id) in progress")
        guard let game = games[id] else {
            // Perhaps ended by another node, which took it over while this one was thought dead;
            // or being taken over here.
            Task {
                await answerGone(
                    id, side: side, player: player, node: node, requestID: requestID, otherwise: missing,
                    request: request, cluster: cluster)
            }
            return nil
        }
        if crossing.remoteSides[id]?[side] == nil, game.players[side]?.id == player,
            connections[player] == nil
        {
            // Taken over here: their node heard `hosted` and presents them next.
            crossing.held[id, default: [:]][side, default: []].append(request)
            return nil
        }
        guard let remote = crossing.remoteSides[id]?[side], remote.node == node else {
            cluster.send(
                .line(to: .player(player), text: Wire.line(Reply(.error(missing), id: requestID))), to: node)
            cluster.send(.ended(game: id, player: player), to: node)
            return nil
        }
        return (game, remote.outbox)
    }

    // MARK: Rematches across nodes

    /// A game hosted here ended: its players on other nodes may rematch it, through the outbox
    /// to their node. Returns them.
    func keepRemoteRematchers(of game: Game) -> Set<Int64> {
        var players: Set<Int64> = []
        for (side, remote) in crossing.remoteSides[game.id] ?? [:] {
            guard let player = game.players[side]?.id else { continue }
            crossing.rematchers[player] = remote
            players.insert(player)
        }
        return players
    }

    /// The outbox to a player here or, if their last game ended here, on another node.
    func rematchOutbox(of player: Int64) -> Outbox? {
        connections[player]?.outbox ?? crossing.rematchers[player]?.outbox
    }

    /// A player here whose last game another node hosted asks for its rematch: the host, which
    /// keeps the offers, is asked. Returns whether it was.
    func rematchElsewhere(_ id: Int64, by player: Int64, requestID: RequestID?) -> Bool {
        guard let cluster else { return false }
        // The game's `ended` may still be on its way: the seat names the host then.
        let host =
            crossing.lastGameHosts[player].flatMap { $0.game == id ? $0.host : nil }
            ?? crossing.seats[player].flatMap { $0.game == id ? $0.host : nil }
        guard let host else { return false }
        cluster.send(.rematch(game: id, player: player, id: requestID, node: cluster.node), to: host)
        return true
    }

    /// A player here moved on: if another node hosted their last game, it is told, and their
    /// rematch of it lapses there.
    func movedOnElsewhere(_ player: Int64) {
        guard let cluster, let last = crossing.lastGameHosts.removeValue(forKey: player) else { return }
        cluster.send(.movedOn(player: player, node: cluster.node), to: last.host)
    }

    /// A rematch starts here: `side` is played by a player on `node`, who is told and relayed.
    func startRemoteSide(_ side: Side, of game: Int64, player: Int64, node: Int64) -> Outbox? {
        guard let cluster else { return nil }
        let outbox = remoteOutbox(to: node, for: .player(player), cluster: cluster)
        crossing.remoteSides[game, default: [:]][side] = (node, outbox)
        cluster.send(.started(game: game, player: player, side: side, host: cluster.node), to: node)
        return outbox
    }

    /// A game hosted here ended: the nodes of its players and watchers elsewhere are told.
    func endedElsewhere(_ game: Game) {
        guard let cluster else { return }
        crossing.held[game.id] = nil
        crossing.relaysPlayed[game.id] = nil
        for (side, remote) in crossing.remoteSides.removeValue(forKey: game.id) ?? [:] {
            guard let player = game.players[side]?.id else { continue }
            cluster.send(.ended(game: game.id, player: player), to: remote.node)
        }
        for key in (crossing.remoteWatchers.removeValue(forKey: game.id) ?? [:]).keys {
            cluster.send(.watchEnded(game: game.id, watcher: key.watcher), to: key.node)
        }
    }
}
