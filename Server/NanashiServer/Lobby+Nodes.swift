import Foundation
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// What the lobby keeps of games that cross nodes (several servers on one PostgreSQL).
///
/// A game is hosted by one node: its `Game` (clocks, rules, storage) lives there. A player on
/// another node has a `RelayedSeat` there, which forwards their moves to the host; the host
/// writes that player's lines to an outbox that forwards them to the player's node. Watchers
/// likewise.
struct CrossNodeGames {
    /// Players here whose game another node hosts.
    var seats: [Int64: RelayedSeat] = [:]
    /// Hosted here: the sides of each game played on other nodes, their node and outbox.
    var remoteSides: [Int64: [Side: (node: Int64, outbox: Outbox)]] = [:]
    /// Hosted here: the watchers on other nodes of each game, by (node, watcher).
    var remoteWatchers: [Int64: [RemoteWatcher: Outbox]] = [:]
    /// Watching here a game hosted elsewhere: each connection's outbox and watches, by outbox id.
    var watchers: [Int: (outbox: Outbox, games: [Int64: RelayedWatch])] = [:]
    /// The last id given to an outbox that forwards to another node (negative: no connection's).
    var lastRemoteOutbox = 0
    /// Players here whose last game another node hosted, and that node: their `rematch` goes
    /// there.
    var lastGameHosts: [Int64: (game: Int64, host: Int64)] = [:]
    /// Hosted here: players on other nodes whose last game ended here (they may rematch it), and
    /// the outbox to them.
    var rematchers: [Int64: (node: Int64, outbox: Outbox)] = [:]
    /// Hosted here after a take-over: the moves and resignations relayed for a side whose node
    /// has not said it is there (`present`, which follows `hosted`), played once it has.
    var held: [Int64: [Side: [NodeMessage]]] = [:]
    /// Hosted here: the last move or resignation played for each side of a game played on
    /// another node, by that node and its number for it; one sent again is not played twice.
    var relaysPlayed: [Int64: [Side: (node: Int64, relay: Int64)]] = [:]
    /// The number this node gave the last move or resignation it relayed to a host.
    var lastRelay: Int64 = 0
    /// Players here whose seek is being stored: its `seeking`, sent once it is, goes out at once
    /// if their game starts first (another node may pair the seek meanwhile), so that it is
    /// always ahead of the `start`, as on one node.
    var seekReplies: [Int64: (outbox: Outbox, requestID: RequestID?)] = [:]
    /// Players here with a seek in the shared pool, as far as this node knows: from before it
    /// is stored until it is cancelled or a pass pairs it (here, or `started` from another
    /// node). One that is not in the pool when another game of theirs starts was paired.
    var sharedSeekers: Set<Int64> = []
    /// The pairing passes over the shared pool running, and whether another was asked for
    /// while as many ran as may.
    var pairingPasses = 0
    var pairingAgain = false

    struct RemoteWatcher: Hashable {
        var node: Int64
        var watcher: Int
    }
}

extension Lobby {
    /// Whether several nodes share the database (PostgreSQL).
    var crossesNodes: Bool { cluster != nil }

    /// How long ago a live node's heartbeat may be.
    nonisolated var aliveAfter: Date { settings.clock.date - settings.nodeLease.inSeconds }

    // MARK: Starting and stopping

    /// Claims the games no live node hosts, resumes them here and tells the other nodes.
    func takeOverGames(ids: [Int64]? = nil) async {
        guard let cluster else { return }
        let claimed: [Int64]
        do {
            claimed = try await cluster.claimGames(aliveAfter: aliveAfter, ids: ids)
        } catch {
            logger.error("taking over games failed: \(error)")
            return
        }
        await resumeHosted(claimed, cluster: cluster)
    }

    /// Resumes as stored the games of `ids`, which storage says this node hosts (claimed just
    /// now, or held here in a copy that storage refused), and tells the other nodes; the
    /// players here get them.
    func resumeHosted(_ ids: [Int64], cluster: any Cluster) async {
        guard !ids.isEmpty else { return }
        do {
            let engineGames = try await storage.unfinishedEngineLevels()
            await resume(try await cluster.unfinishedGames(ids: ids), engineGames: engineGames)
            for id in ids {
                guard let game = games[id] else { continue }
                cluster.send(.hosted(game: id, node: cluster.node), to: nil)
                // Its players here were relayed to the old host: they get the game from here now.
                for (side, player) in game.players {
                    if crossing.seats[player.id]?.game == id {
                        answerLostRequest(of: player.id)
                        crossing.seats[player.id] = nil
                    }
                    if let outbox = connections[player.id]?.outbox { await game.rejoin(side, outbox: outbox) }
                }
            }
        } catch {
            logger.error("resuming \(ids.count) games hosted here failed: \(error)")
            // Hosted but not resumed, a game would be held by a live node that does not play
            // it, and no node would claim it again: let it go, for the next beat to claim.
            let unresumed = ids.filter { games[$0] == nil }
            do {
                try await cluster.releaseGames(ids: unresumed)
            } catch {
                logger.error("letting go of \(unresumed.count) claimed games failed: \(error)")
            }
        }
    }

    /// Beats this node's heartbeat, and takes over the games of nodes whose heartbeat stopped.
    /// Off the lobby's actor: however busy the lobby, the heartbeat is not late (a node whose
    /// beat waited behind a flood of requests was taken for dead while it ran); only games
    /// claimed wait for the lobby, to be resumed.
    nonisolated func beatAndTakeOver() async {
        guard let cluster else { return }
        let claimed: [Int64]
        do {
            // At most a beat's time: one that hangs is dropped, and the next beat connects again.
            try await cluster.heartbeat(
                now: settings.clock.date, aliveAfter: aliveAfter, within: settings.heartbeat)
            claimed = try await cluster.claimGames(aliveAfter: aliveAfter, ids: nil)
        } catch {
            logger.warning("heartbeat failed: \(error)")
            return
        }
        guard !claimed.isEmpty else { return }
        await resumeHosted(claimed, cluster: cluster)
    }

    // MARK: Seeking

    /// Puts a seek in the pool the nodes share and tells the player `seeking`.
    func seekShared(
        _ seeker: Seeker, control: TimeControl, layout: Layout = .standard, outbox: Outbox,
        requestID: RequestID?,
        cluster: any Cluster
    ) async throws(ProtocolError) {
        guard let id = seeker.player.id else { return }
        try await checkMayStartAGame(id, outbox: outbox)
        moveOn(id)
        let seek = SharedSeek(
            playerID: id, node: cluster.node, rating: seeker.player.rating,
            colourBalance: seeker.colourBalance,
            control: control, since: settings.clock.date, layout: layout)
        crossing.seekReplies[id] = (outbox, requestID)
        // Before it is stored: a pass may pair it before `addSeek` returns.
        crossing.sharedSeekers.insert(id)
        do {
            try await cluster.addSeek(seek)
        } catch let error as ProtocolError {
            crossing.seekReplies[id] = nil
            crossing.sharedSeekers.remove(id)
            throw error
        } catch {
            crossing.seekReplies[id] = nil
            crossing.sharedSeekers.remove(id)
            logger.error("storing a seek failed: \(error)")
            throw ProtocolError(.internalError, "the seek could not be stored; nothing changed")
        }
        guard connections[id]?.outbox == outbox else {
            // Left while the seek was stored: it goes with them.
            crossing.seekReplies[id] = nil
            _ = try? await withdrawSharedSeek(of: id, cluster: cluster)
            return
        }
        sendSeeking(to: id)
        requestPairing()
    }

    /// Sends the `seeking` of the player's seek being stored, if it has not gone yet: before
    /// anything of a game that seek may already have started.
    func sendSeeking(to playerID: Int64) {
        guard let reply = crossing.seekReplies.removeValue(forKey: playerID) else { return }
        reply.outbox.send(.seeking, id: reply.requestID)
    }

    /// Pairing passes over the shared pool, at most `sharedPairingPasses` at a time, each on a
    /// batch of its own (`SKIP LOCKED`): a pass asked for while as many run comes after one of
    /// them, and a pass that found its batch full starts another beside it (more seeks may
    /// wait). This node hosts the games it pairs, each with at least one of its own seekers.
    func pairShared(cluster: any Cluster) async {
        guard crossing.pairingPasses < settings.sharedPairingPasses else {
            crossing.pairingAgain = true
            return
        }
        crossing.pairingPasses += 1
        defer { crossing.pairingPasses -= 1 }
        repeat {
            crossing.pairingAgain = false
            if await pairBatch(cluster: cluster) {
                crossing.pairingAgain = true
                if crossing.pairingPasses < settings.sharedPairingPasses {
                    Task { await self.pairShared(cluster: cluster) }
                }
            }
        } while crossing.pairingAgain
    }

    /// One pass over a batch of the shared pool (`sharedPairingBatch` seeks at most); returns
    /// whether the batch was full, so more seeks may wait.
    func pairBatch(cluster: any Cluster) async -> Bool {
        let (now, node) = (settings.clock.date, cluster.node)
        let (gap, widening) = (settings.pairingGap, settings.pairingWidening)
        let pass: (games: [SharedPairing], full: Bool, skipped: Bool)
        // Its games are created with the pass: a stop waits for them, or it pairs nothing.
        guard (try? startingGame(of: [])) != nil else { return false }
        defer { startedGame(of: []) }
        do {
            pass = try await cluster.pairSeeks(
                aliveAfter: aliveAfter, now: now, limit: settings.sharedPairingBatch
            ) { seeks in
                Self.pick(seeks, node: node, now: now, gap: gap, widening: widening)
            }
        } catch {
            // Not when the server is stopping.
            if !(error is CancellationError) { logger.error("pairing the shared seeks failed: \(error)") }
            return false
        }
        for pairing in pass.games { startShared(pairing, cluster: cluster) }
        // A full batch that paired nothing (no seeker of this node in it) would find the same
        // batch again: the interval's pass looks later.
        let again = pass.full && !pass.games.isEmpty
        if pass.games.isEmpty, pass.skipped {
            // Another node's pass held some seeks: look again in a moment (not at once, or two
            // nodes could keep holding each other's seeks), rather than at the next interval.
            Task {
                try? await Task.sleep(for: .milliseconds(Int.random(in: 5...40)))
                self.requestPairing()
            }
        }
        return again
    }

    /// The pairs the matchmaker makes of `seeks` that have a seeker of `node`, and whether the
    /// first of each plays x (colours even out as on one node).
    nonisolated static func pick(
        _ seeks: [SharedSeek], node: Int64, now: Date, gap: Double, widening: Double
    ) -> [(first: SharedSeek, second: SharedSeek, firstIsX: Bool)] {
        var matchmaker = Matchmaker(gap: gap, widening: widening)
        let base = ContinuousClock.now
        var byPlayer: [Int64: SharedSeek] = [:]
        for seek in seeks {
            byPlayer[seek.playerID] = seek
            try? matchmaker.add(
                .init(
                    playerID: seek.playerID, rating: seek.rating, control: seek.control,
                    since: base - .milliseconds(Int64(max(0, now.timeIntervalSince(seek.since)) * 1000)),
                    layout: seek.layout))
        }
        // Only pairs with a seeker of this node: the others are their nodes' to make (and the
        // seeker of another node is free to meet one of this node's instead).
        let mine = Set(seeks.lazy.filter { $0.node == node }.map(\.playerID))
        let pairs = matchmaker.pairs(now: base) { mine.contains($0.playerID) || mine.contains($1.playerID) }
        return pairs.compactMap { first, second in
            guard let a = byPlayer[first.playerID], let b = byPlayer[second.playerID] else { return nil }
            let firstIsX =
                a.colourBalance == b.colourBalance ? Bool.random() : a.colourBalance < b.colourBalance
            return (a, b, firstIsX)
        }
    }

    /// Starts a game a pass paired: hosted here, its sides on other nodes told and relayed.
    func startShared(_ pairing: SharedPairing, cluster: any Cluster, isRated: Bool = true) {
        var outboxes: [Side: Outbox] = [:]
        for side in Side.allCases {
            let player = side == .x ? pairing.x : pairing.o
            guard let playerID = player.id, let node = pairing.nodes[side] else { continue }
            if node == cluster.node {
                crossing.sharedSeekers.remove(playerID)
                moveOn(playerID)
                sendSeeking(to: playerID)
                if let outbox = connections[playerID]?.outbox { outboxes[side] = outbox }
            } else {
                let outbox = remoteOutbox(to: node, for: .player(playerID), cluster: cluster)
                crossing.remoteSides[pairing.game, default: [:]][side] = (node, outbox)
                outboxes[side] = outbox
                cluster.send(
                    .started(game: pairing.game, player: playerID, side: side, host: cluster.node), to: node)
            }
        }
        let game = makeGame(
            id: pairing.game, control: pairing.control, x: pairing.x, o: pairing.o, start: pairing.start,
            position: pairing.start, moves: [], clocks: nil, outboxes: outboxes, isRated: isRated)
        logger.info(
            "game \(pairing.game) started: \(pairing.x.name) (x) v \(pairing.o.name) (o) at \(pairing.control)"
        )
        Task { await game.begin() }
    }

    /// An outbox whose lines go to a player or watcher on another node.
    func remoteOutbox(to node: Int64, for recipient: NodeMessage.Recipient, cluster: any Cluster) -> Outbox {
        crossing.lastRemoteOutbox -= 1
        return Outbox(id: crossing.lastRemoteOutbox) { event in
            switch event {
            case .line(let text), .watchedLine(let text):
                cluster.send(.line(to: recipient, text: text), to: node)
            case .close, .loggedIn, .watching: break
            }
        }
    }

}
