import Foundation
import NanashiCore
import NanashiProtocol
import NanashiStorage

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
    var crossesNodes: Bool { link != nil }

    /// How long ago a live node's heartbeat may be.
    var aliveAfter: Date { settings.clock.date - settings.nodeLease.inSeconds }

    // MARK: Starting and stopping

    /// Claims the games no live node hosts, resumes them here and tells the other nodes.
    func takeOverGames(ids: [Int64]? = nil) async {
        guard let link else { return }
        let claimed: [Int64]
        do {
            claimed = try await link.storage.claimGames(node: link.node, aliveAfter: aliveAfter, ids: ids)
        } catch {
            logger.error("taking over games failed: \(error)")
            return
        }
        await resumeHosted(claimed, link: link)
    }

    /// Resumes as stored the games of `ids`, which storage says this node hosts (claimed just
    /// now, or held here in a copy that storage refused), and tells the other nodes; the
    /// players here get them.
    private func resumeHosted(_ ids: [Int64], link: NodeLink) async {
        guard !ids.isEmpty else { return }
        do {
            let engineGames = try await storage.unfinishedEngineLevels()
            await resume(try await link.storage.unfinishedGames(ids: ids), engineGames: engineGames)
            for id in ids {
                guard let game = games[id] else { continue }
                link.send(.hosted(game: id, node: link.node), to: nil)
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
                try await link.storage.releaseGames(ids: unresumed, node: link.node)
            } catch {
                logger.error("letting go of \(unresumed.count) claimed games failed: \(error)")
            }
        }
    }

    /// Beats this node's heartbeat, and takes over the games of nodes whose heartbeat stopped.
    func beatAndTakeOver() async {
        guard let link else { return }
        do {
            // At most a beat's time: one that hangs is dropped, and the next beat connects again.
            try await link.storage.heartbeat(
                node: link.node, now: settings.clock.date, aliveAfter: aliveAfter,
                within: settings.nodeLease / 4,
                clock: settings.clock)
        } catch {
            logger.warning("heartbeat failed: \(error)")
            return
        }
        await takeOverGames()
    }

    // MARK: Seeking

    /// Puts a seek in the pool the nodes share and tells the player `seeking`.
    func seekShared(
        _ seeker: Seeker, control: TimeControl, outbox: Outbox, requestID: RequestID?, link: NodeLink
    ) async throws(ProtocolError) {
        guard let id = seeker.player.id else { return }
        try await checkMayStartAGame(id, outbox: outbox)
        moveOn(id)
        let seek = SharedSeek(
            playerID: id, node: link.node, rating: seeker.player.rating, colourBalance: seeker.colourBalance,
            control: control, since: settings.clock.date)
        do {
            try await link.storage.addSeek(seek)
        } catch let error as ProtocolError {
            throw error
        } catch {
            logger.error("storing a seek failed: \(error)")
            throw ProtocolError(.internalError, "the seek could not be stored; nothing changed")
        }
        guard connections[id]?.outbox == outbox else {
            // Left while the seek was stored: it goes with them.
            try? await link.storage.removeSeek(playerID: id, node: link.node)
            return
        }
        outbox.send(.seeking, id: requestID)
        requestPairing()
    }

    /// Pairing passes over the shared pool, at most `sharedPairingPasses` at a time, each on a
    /// batch of its own (`SKIP LOCKED`): a pass asked for while as many run comes after one of
    /// them, and a pass that found its batch full starts another beside it (more seeks may
    /// wait). This node hosts the games it pairs, each with at least one of its own seekers.
    func pairShared(link: NodeLink) async {
        guard crossing.pairingPasses < settings.sharedPairingPasses else {
            crossing.pairingAgain = true
            return
        }
        crossing.pairingPasses += 1
        defer { crossing.pairingPasses -= 1 }
        repeat {
            crossing.pairingAgain = false
            if await pairBatch(link: link) {
                crossing.pairingAgain = true
                if crossing.pairingPasses < settings.sharedPairingPasses {
                    Task { await self.pairShared(link: link) }
                }
            }
        } while crossing.pairingAgain
    }

    /// One pass over a batch of the shared pool (`sharedPairingBatch` seeks at most); returns
    /// whether the batch was full, so more seeks may wait.
    private func pairBatch(link: NodeLink) async -> Bool {
        let (now, node) = (settings.clock.date, link.node)
        let (gap, widening) = (settings.pairingGap, settings.pairingWidening)
        let pass: (games: [SharedPairing], full: Bool, skipped: Bool)
        do {
            pass = try await link.storage.pairSeeks(
                node: node, aliveAfter: aliveAfter, now: now, limit: settings.sharedPairingBatch
            ) { seeks in
                Self.pick(seeks, node: node, now: now, gap: gap, widening: widening)
            }
        } catch {
            // Not when the server is stopping.
            if !(error is CancellationError) { logger.error("pairing the shared seeks failed: \(error)") }
            return false
        }
        for pairing in pass.games { startShared(pairing, link: link) }
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
                    since: base - .milliseconds(Int64(max(0, now.timeIntervalSince(seek.since)) * 1000))))
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
    private func startShared(_ pairing: SharedPairing, link: NodeLink) {
        var outboxes: [Side: Outbox] = [:]
        for side in Side.allCases {
            let player = side == .x ? pairing.x : pairing.o
            guard let playerID = player.id, let node = pairing.nodes[side] else { continue }
            if node == link.node {
                moveOn(playerID)
                if let outbox = connections[playerID]?.outbox { outboxes[side] = outbox }
            } else {
                let outbox = remoteOutbox(to: node, for: .player(playerID), link: link)
                crossing.remoteSides[pairing.game, default: [:]][side] = (node, outbox)
                outboxes[side] = outbox
                link.send(
                    .started(game: pairing.game, player: playerID, side: side, host: link.node), to: node)
            }
        }
        let game = makeGame(
            id: pairing.game, control: pairing.control, x: pairing.x, o: pairing.o, position: .start,
            moves: [],
            clocks: nil, outboxes: outboxes)
        logger.info(
            "game \(pairing.game) started: \(pairing.x.name) (x) v \(pairing.o.name) (o) at \(pairing.control)"
        )
        Task { await game.begin() }
    }

    /// An outbox whose lines go to a player or watcher on another node.
    private func remoteOutbox(to node: Int64, for recipient: NodeMessage.Recipient, link: NodeLink) -> Outbox
    {
        crossing.lastRemoteOutbox -= 1
        return Outbox(id: crossing.lastRemoteOutbox) { event in
            switch event {
            case .line(let text), .watchedLine(let text):
                link.send(.line(to: recipient, text: text), to: node)
            case .close, .loggedIn, .watching: break
            }
        }
    }

    // MARK: Players on several nodes

    /// A player logged in here: if another node hosts their game, it is told to send it here;
    /// if no live node hosts it, this node takes it over.
    func attachElsewhere(_ playerID: Int64, link: NodeLink) async {
        let found: (game: Int64, side: Side, host: Int64?)?
        do {
            found = try await link.storage.unfinishedGame(of: playerID, aliveAfter: aliveAfter)
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
        guard host != link.node else { return }
        crossing.seats[playerID] = RelayedSeat(game: found.game, side: found.side, host: host, link: link)
        link.send(.present(game: found.game, side: found.side, player: playerID, node: link.node), to: host)
    }

    /// This node listens again after its connection to the database was lost, and may have
    /// missed lines meanwhile: each player and watcher here of a game hosted elsewhere gets the
    /// game afresh from its host. The other nodes are told too, since what this node sent them
    /// while they were not listening (the same outage may have cut them off) was lost as well.
    func listeningAgain() {
        guard let link else { return }
        // A host's `listening` may have been missed as well.
        sendUnansweredAgain(to: nil)
        presentAgain(to: nil, link: link)
        link.send(.listening(node: link.node), to: nil)
    }

    /// Tells the hosts of games played or watched here (`host`'s only, or every one) who of this
    /// node's players and watchers are in them, as if they had just come: each gets the game
    /// afresh.
    private func presentAgain(to host: Int64?, link: NodeLink) {
        for (player, seat) in crossing.seats
        where connections[player] != nil && (host == nil || seat.host == host) {
            link.send(
                .present(game: seat.game, side: seat.side, player: player, node: link.node), to: seat.host)
        }
        for (watcher, watching) in crossing.watchers {
            for (game, watch) in watching.games where host == nil || watch.host == host {
                link.send(.watch(game: game, watcher: watcher, id: nil, node: link.node), to: watch.host)
            }
        }
    }

    /// Sends the moves and resignations of players here still unanswered by their hosts
    /// (`host`'s only, or every one) again: the host may not have been listening when they were
    /// sent. A host that had them plays them once.
    private func sendUnansweredAgain(to host: Int64?) {
        for seat in crossing.seats.values where host == nil || seat.host == host {
            if let unanswered = seat.unanswered { seat.send(unanswered) }
        }
    }

    /// A player's connection here closed: the host of their game, if another node, is told.
    func detachElsewhere(_ playerID: Int64) {
        guard let link, let seat = crossing.seats[playerID] else { return }
        link.send(.absent(game: seat.game, side: seat.side, node: link.node), to: seat.host)
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

    /// The number of the next move or resignation this node relays.
    private func nextRelay() -> Int64 {
        crossing.lastRelay += 1
        return crossing.lastRelay
    }

    /// The host of a player's game changed while their last move or resignation, forwarded to
    /// the old host, had no answer: it died with that host (stored or not). The player is told
    /// so, before the new host sends the game as stored.
    private func answerLostRequest(of playerID: Int64) {
        guard let lost = crossing.seats[playerID]?.unanswered else { return }
        crossing.seats[playerID]?.unanswered = nil
        connections[playerID]?.outbox.send(.error(Self.lostRequest), id: lost.requestID)
    }

    /// A message to another node was dropped (the database refused it, or the queue to the
    /// other nodes was full): the player or watcher here who sent a request is answered
    /// `internal_error`; a watcher there who missed a line of a game hosted here is let go.
    func dropped(_ message: NodeMessage, to node: Int64?) async {
        switch message {
        case .move(_, _, let player, _, let id, _, _), .resign(_, _, let player, let id, _, _):
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
            guard let link, let node else { return }
            let key = CrossNodeGames.RemoteWatcher(node: node, watcher: watcher)
            for (id, watchers) in crossing.remoteWatchers {
                guard let outbox = watchers[key] else { continue }
                crossing.remoteWatchers[id]?[key] = nil
                await games[id]?.unwatch(outbox)
                link.send(.watchEnded(game: id, watcher: watcher), to: node)
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
        guard let link, let host = try await link.storage.host(ofGame: id, aliveAfter: aliveAfter),
            host != link.node
        else { throw ProtocolError(.noSuchGame, "no game \(id) is in progress") }
        return follow(id, on: host, outbox: outbox, requestID: requestID, link: link)
    }

    /// A connection here watches game `id` on `host`, which sends it `watching` (answering
    /// `requestID`), then the game's lines.
    private func follow(_ id: Int64, on host: Int64, outbox: Outbox, requestID: RequestID?, link: NodeLink)
        -> RelayedWatch
    {
        let watch = crossing.watchers[outbox.id]?.games[id] ?? RelayedWatch(game: id, host: host, lobby: self)
        watch.host = host
        crossing.watchers[outbox.id, default: (outbox, [:])].games[id] = watch
        link.send(.watch(game: id, watcher: outbox.id, id: requestID, node: link.node), to: host)
        return watch
    }

    /// What a connection here watches as game `id` once the game it watched here was handed
    /// over: the game taken again here, or the watch relayed to its new host.
    func followed(_ id: Int64, by outbox: Outbox) -> (any Spectated)? {
        if let game = games[id] { return game }
        return crossing.watchers[outbox.id]?.games[id]
    }

    func unwatchElsewhere(_ id: Int64, outbox: Outbox) {
        guard let link, let watch = crossing.watchers[outbox.id]?.games.removeValue(forKey: id) else {
            return
        }
        if crossing.watchers[outbox.id]?.games.isEmpty == true { crossing.watchers[outbox.id] = nil }
        link.send(.unwatch(game: id, watcher: outbox.id, node: link.node), to: watch.host)
    }

    /// The `live` list of every node, from the database.
    func liveEverywhere(limit: Int, link: NodeLink) async -> [LiveGame] {
        do {
            return try await link.storage.liveGames(limit: limit, aliveAfter: aliveAfter)
        } catch {
            logger.error("reading the live games failed: \(error)")
            return []
        }
    }

    // MARK: A game taken over from this live node

    /// Another node took over game `id`, which this node still holds (its heartbeat came late,
    /// and it was taken for dead): the game is let go here without ending or rating it, and its
    /// players here get seats relayed to `host`, as players on a node other than the host, and
    /// its watchers here watch it there. The caller sends the players' `present`, then
    /// `resignElsewhere` of what this returns: a resignation the game had not stored here.
    private func handOver(_ id: Int64, to host: Int64, link: NodeLink) async -> (Game, Game.Resignation)? {
        guard let game = games[id] else { return nil }
        letGo(game)
        // Their nodes heard `hosted` too, and follow the game to its new host.
        crossing.remoteSides[id] = nil
        crossing.held[id] = nil
        crossing.relaysPlayed[id] = nil
        let elsewhere = Set((crossing.remoteWatchers.removeValue(forKey: id) ?? [:]).values.map(\.id))
        for (side, player) in game.players where connections[player.id] != nil {
            crossing.seats[player.id] = RelayedSeat(game: id, side: side, host: host, link: link)
        }
        logger.warning("game \(id) is hosted by node \(host) now: let go here")
        let handedOver = await game.handOver()
        for watcher in handedOver.watchers where !elsewhere.contains(watcher.id) {
            _ = follow(id, on: host, outbox: watcher, requestID: nil, link: link)
        }
        return handedOver.resignation.map { (game, $0) }
    }

    /// A player here resigned game `game` as it was handed over, and it was not stored: the
    /// resignation goes to the game's host (after the player's `present`), which plays it and
    /// answers it. (A player no longer here has no seat: their absence plays out there.)
    private func resignElsewhere(_ resignation: Game.Resignation, of game: Game) {
        guard let player = game.players[resignation.side]?.id else { return }
        try? relayResignation(
            game: game.id, of: player, requestID: resignation.requestID,
            failing: ProtocolError(.noSuchGame, "no seat"))
    }

    /// Takes a game this node no longer hosts off the books, without ending it.
    private func letGo(_ game: Game) {
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
        guard let link, games[game.id] === game else { return }
        let host: Int64?
        do {
            host = try await link.storage.host(ofGame: game.id, aliveAfter: aliveAfter)
        } catch {
            logger.error("looking up the host of game \(game.id) failed: \(error)")
            return
        }
        guard games[game.id] === game else { return }
        if let host, host != link.node {
            let unstored = await handOver(game.id, to: host, link: link)
            for (side, player) in game.players where crossing.seats[player.id]?.game == game.id {
                link.send(.present(game: game.id, side: side, player: player.id, node: link.node), to: host)
            }
            if let (game, resignation) = unstored { resignElsewhere(resignation, of: game) }
            return
        }
        // Hosted here or by no live node, or ended: what storage holds is the game, not this copy.
        let elsewhere = Set((crossing.remoteWatchers[game.id] ?? [:]).values.map(\.id))
        let handedOver = await game.handOver()
        letGo(game)
        if host == link.node {
            await resumeHosted([game.id], link: link)
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
        let stored = await storedEnd(of: game.id, link: link)
        let remoteSides = crossing.remoteSides.removeValue(forKey: game.id) ?? [:]
        crossing.relaysPlayed[game.id] = nil
        defer {
            for (side, remote) in remoteSides {
                guard let player = game.players[side]?.id else { continue }
                link.send(.ended(game: game.id, player: player), to: remote.node)
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
    private func storedEnd(of id: Int64, link: NodeLink) async -> (
        outcome: Outcome, ratings: [Side: RatingChange]
    )? {
        do {
            return try await link.storage.storedEnd(ofGame: id)
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
    private func answerGone(
        _ id: Int64, side: Side, player: Int64, node: Int64, requestID: RequestID?, otherwise: ProtocolError?,
        request: NodeMessage? = nil, link: NodeLink
    ) async {
        if let stored = await storedEnd(of: id, link: link) {
            let end = GameEnd(game: id, outcome: stored.outcome, rating: stored.ratings[side]!)
            link.send(.line(to: .player(player), text: Wire.line(Reply(.end(end), id: requestID))), to: node)
            link.send(.ended(game: id, player: player), to: node)
            return
        }
        let answer = otherwise.map { Wire.line(Reply(.error($0), id: requestID)) }
        switch await liveHost(of: id, link: link) {
        case link.node?:
            // Claimed here and being resumed: its `hosted` is on its way, their node presents
            // them again, and their request is answered then (or now, if that happened meanwhile).
            guard let request else { return }
            if games[id] != nil, crossing.remoteSides[id]?[side]?.node == node {
                await received(request)
            } else {
                crossing.held[id, default: [:]][side, default: []].append(request)
            }
        case let host?:
            link.send(.hosted(game: id, node: host), to: node)
        case nil:
            link.send(.ended(game: id, player: player), to: node)
            if let answer { link.send(.line(to: .player(player), text: answer), to: node) }
        }
    }

    /// A watcher on `node` asked for game `id`, which is not here: if another live node hosts
    /// it (their node missed `hosted`), their node is told which, and asks there; if it is being
    /// taken over here, `hosted` follows; else the watcher hears that it is not in progress.
    private func watchGone(_ id: Int64, watcher: Int, requestID: RequestID?, node: Int64, link: NodeLink)
        async
    {
        switch await liveHost(of: id, link: link) {
        case link.node?:
            return
        case let host?:
            link.send(.hosted(game: id, node: host), to: node)
        case nil:
            let error = ProtocolError(.noSuchGame, "no game \(id) is in progress")
            link.send(
                .line(to: .watcher(watcher), text: Wire.line(Reply(.error(error), id: requestID))), to: node)
            link.send(.watchEnded(game: id, watcher: watcher), to: node)
        }
    }

    /// The live node hosting the unfinished game `id`, if any (`nil` too if storage cannot say).
    private func liveHost(of id: Int64, link: NodeLink) async -> Int64? {
        do {
            return try await link.storage.host(ofGame: id, aliveAfter: aliveAfter)
        } catch {
            logger.error("looking up the host of game \(id) failed: \(error)")
            return nil
        }
    }

    // MARK: Messages from other nodes

    /// Acts on a message from another node.
    func received(_ message: NodeMessage) async {
        guard let link else { return }
        switch message {
        case .started(let game, let player, let side, let host):
            crossing.seats[player] = RelayedSeat(game: game, side: side, host: host, link: link)
            moveOn(player)
            if connections[player] == nil {
                link.send(.absent(game: game, side: side, node: link.node), to: host)
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
        case .loggedIn(let player, let node, let ticket):
            guard node != link.node else { return }
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
                link.send(.watch(game: game, watcher: watcher, id: nil, node: link.node), to: node)
            }
            guard node != link.node else { return }
            // This node still holds it (it was taken for dead): it lets it go.
            let unstored = await handOver(game, to: node, link: link)
            for (player, seat) in crossing.seats where seat.game == game {
                if seat.host != node { answerLostRequest(of: player) }
                crossing.seats[player]?.host = node
                if connections[player] != nil {
                    link.send(
                        .present(game: game, side: seat.side, player: player, node: link.node), to: node)
                }
            }
            if let (game, resignation) = unstored { resignElsewhere(resignation, of: game) }
        case .move(let id, let side, let player, let move, let requestID, let node, let relay):
            guard let (game, outbox) = hostedSideOnce(id, side, player, node, relay, message, link) else {
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
            guard let (game, outbox) = hostedSideOnce(id, side, player, node, relay, message, link) else {
                return
            }
            Task {
                do throws(ProtocolError) {
                    try await game.resign(side, requestID: requestID)
                } catch {
                    outbox.send(.error(error), id: requestID)
                }
            }
        case .present(let id, let side, let player, let node):
            guard let game = games[id] else {
                // Not awaited: reading storage must not hold up this node's other messages.
                Task {
                    await answerGone(
                        id, side: side, player: player, node: node, requestID: nil, otherwise: nil, link: link
                    )
                }
                return
            }
            guard game.players[side]?.id == player else {
                link.send(.ended(game: id, player: player), to: node)
                return
            }
            let outbox = remoteOutbox(to: node, for: .player(player), link: link)
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
                Task { await watchGone(id, watcher: watcher, requestID: requestID, node: node, link: link) }
                return
            }
            let outbox = remoteOutbox(to: node, for: .watcher(watcher), link: link)
            let key = CrossNodeGames.RemoteWatcher(node: node, watcher: watcher)
            do throws(ProtocolError) {
                if let older = crossing.remoteWatchers[id]?[key] { await game.unwatch(older) }
                try await game.watch(outbox, requestID: requestID)
                crossing.remoteWatchers[id, default: [:]][key] = outbox
            } catch {
                outbox.send(.error(error), id: requestID)
                link.send(.watchEnded(game: id, watcher: watcher), to: node)
            }
        case .unwatch(let id, let watcher, let node):
            let key = CrossNodeGames.RemoteWatcher(node: node, watcher: watcher)
            if let outbox = crossing.remoteWatchers[id]?.removeValue(forKey: key) {
                await games[id]?.unwatch(outbox)
            }
        case .rematch(let id, let player, let requestID, let node):
            let outbox =
                crossing.rematchers[player].map(\.outbox)
                ?? remoteOutbox(to: node, for: .player(player), link: link)
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
            guard node != link.node else { return }
            // The moves it may have missed first: the game sent afresh then shows them.
            sendUnansweredAgain(to: node)
            presentAgain(to: node, link: link)
        }
    }

    /// The game whose `end` a line the host sent a player is, if it is one. Lines are encoded
    /// with sorted keys, so an `end` ends with its type: only such lines are decoded.
    private static func endedGame(_ line: String) -> Int64? {
        guard line.hasSuffix(#""type":"end"}"#),
            case .end(let end)? = try? Wire.reply(fromLine: Array(line.utf8)).message
        else { return nil }
        return end.game
    }

    /// `hostedSide` for a move or resignation, number `relay` of `node`, which is recorded as
    /// played; `nil` for one played already (sent again, since this node was thought not to be
    /// listening).
    private func hostedSideOnce(
        _ id: Int64, _ side: Side, _ player: Int64, _ node: Int64, _ relay: Int64, _ request: NodeMessage,
        _ link: NodeLink
    ) -> (Game, Outbox)? {
        if let last = crossing.relaysPlayed[id]?[side], last.node == node, last.relay >= relay { return nil }
        guard let hosted = hostedSide(id, side, player, node, request.requestID, request, link) else {
            return nil
        }
        crossing.relaysPlayed[id, default: [:]][side] = (node, relay)
        return hosted
    }

    /// The game hosted here and the outbox of `side`, if that side plays from `node`. If the
    /// game was taken over here and that side's node has not presented them yet, `request` is
    /// held until it does; else the player there hears that the game is not here (it ended, or
    /// moved).
    private func hostedSide(
        _ id: Int64, _ side: Side, _ player: Int64, _ node: Int64, _ requestID: RequestID?,
        _ request: NodeMessage,
        _ link: NodeLink
    ) -> (Game, Outbox)? {
        let missing = ProtocolError(.noSuchGame, "you have no game \(id) in progress")
        guard let game = games[id] else {
            // Perhaps ended by another node, which took it over while this one was thought dead;
            // or being taken over here.
            Task {
                await answerGone(
                    id, side: side, player: player, node: node, requestID: requestID, otherwise: missing,
                    request: request, link: link)
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
            link.send(
                .line(to: .player(player), text: Wire.line(Reply(.error(missing), id: requestID))), to: node)
            link.send(.ended(game: id, player: player), to: node)
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
        guard let link else { return false }
        // The game's `ended` may still be on its way: the seat names the host then.
        let host =
            crossing.lastGameHosts[player].flatMap { $0.game == id ? $0.host : nil }
            ?? crossing.seats[player].flatMap { $0.game == id ? $0.host : nil }
        guard let host else { return false }
        link.send(.rematch(game: id, player: player, id: requestID, node: link.node), to: host)
        return true
    }

    /// A player here moved on: if another node hosted their last game, it is told, and their
    /// rematch of it lapses there.
    func movedOnElsewhere(_ player: Int64) {
        guard let link, let last = crossing.lastGameHosts.removeValue(forKey: player) else { return }
        link.send(.movedOn(player: player, node: link.node), to: last.host)
    }

    /// A rematch starts here: `side` is played by a player on `node`, who is told and relayed.
    func startRemoteSide(_ side: Side, of game: Int64, player: Int64, node: Int64) -> Outbox? {
        guard let link else { return nil }
        let outbox = remoteOutbox(to: node, for: .player(player), link: link)
        crossing.remoteSides[game, default: [:]][side] = (node, outbox)
        link.send(.started(game: game, player: player, side: side, host: link.node), to: node)
        return outbox
    }

    /// A game hosted here ended: the nodes of its players and watchers elsewhere are told.
    func endedElsewhere(_ game: Game) {
        guard let link else { return }
        crossing.held[game.id] = nil
        crossing.relaysPlayed[game.id] = nil
        for (side, remote) in crossing.remoteSides.removeValue(forKey: game.id) ?? [:] {
            guard let player = game.players[side]?.id else { continue }
            link.send(.ended(game: game.id, player: player), to: remote.node)
        }
        for key in (crossing.remoteWatchers.removeValue(forKey: game.id) ?? [:]).keys {
            link.send(.watchEnded(game: game.id, watcher: key.watcher), to: key.node)
        }
    }
}
