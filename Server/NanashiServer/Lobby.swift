import Foundation
import Logging
import NanashiAI
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage
import NanashiTransport
import Synchronization

/// Who is connected, who is seeking, and which games are in progress: the server's shared
/// state outside the games themselves.
actor Lobby {
    let storage: any Storage
    let settings: ServerSettings
    let logger: Logger
    /// Where the engine searches, for games against it and analyses.
    let engines: EnginePool
    /// Each logged-in player's one live connection, and the digest of the token it is on.
    var connections: [Int64: (outbox: Outbox, token: [UInt8])] = [:]
    /// With other nodes: each connected player's login ticket here (`NodeMessage.loggedIn`).
    var loginTickets: [Int64: Int64] = [:]
    /// How many logins of each player here are drawing their ticket, and the newest ticket of a
    /// login elsewhere heard of meanwhile.
    var loginsInProgress: [Int64: Int] = [:]
    var loginsElsewhere: [Int64: Int64] = [:]
    /// When a logout of each player was last heard, here or from another node: a login of theirs
    /// that checked its token before it, and attaches after, checks the token again.
    var logoutsHeard: [Int64: ContinuousClock.Instant] = [:]
    var matchmaker: Matchmaker
    /// Each seeking player as read when they sought.
    var seekers: [Int64: Seeker] = [:]
    /// Games in progress by id, and each playing player's game.
    var games: [Int64: Game] = [:]
    var gameOf: [Int64: Game] = [:]
    private var pairingTask: Task<Void, Never>?
    /// A pass is on its way for seeks that came since the last one.
    private var pairingRequested = false
    /// Set as the server starts stopping: no new game starts from then on (`shutting_down`).
    private(set) var refusesNewGames = false
    /// With several nodes on one database, the others as this node sees them; `nil` alone.
    let cluster: (any Cluster)?
    /// Games that cross nodes: their players and watchers on other nodes.
    var crossing = CrossNodeGames()
    private var nodeTasks: [Task<Void, Never>] = []
    /// Players paired whose game is being stored: they may not seek meanwhile.
    var starting: Set<Int64> = []
    /// Games being stored and started (`startingGame`), and the stop waiting for them.
    var gamesStarting = 0
    var gamesStarted: [CheckedContinuation<Void, Never>] = []
    /// Finished games that may be rematched, and the offers standing.
    var rematches = Rematches()
    /// The challenges standing, and who refuses them.
    var challenges = Challenges()
    /// The games against the engine started here, and who may start or rematch one.
    var engineGames: EngineGames
    /// The `live` list as last read, and when.
    var liveList: (games: [LiveGame], readAt: ContinuousClock.Instant)?
    /// With several nodes, the read of the `live` list under way, which requests arriving
    /// meanwhile wait for rather than read again; and how many have (for tests).
    var liveRead: Task<[LiveGame], Never>?
    var liveReadsShared = 0

    init(
        storage: any Storage, settings: ServerSettings, logger: Logger, engines: EnginePool,
        cluster: (any Cluster)? = nil
    ) {
        self.storage = storage
        self.cluster = cluster
        self.engines = engines
        self.settings = settings
        self.logger = logger
        self.matchmaker = Matchmaker(gap: settings.pairingGap, widening: settings.pairingWidening)
        engineGames = EngineGames(settings: settings)
    }

    /// Resumes the games left unfinished in storage (with PostgreSQL, those no live node hosts)
    /// and starts looking at waiting seeks.
    func start() async throws {
        if let cluster {
            await startNode(cluster)
        } else {
            await resume(
                try await storage.unfinishedGames(), engineGames: try await storage.unfinishedEngineLevels())
        }
        let (interval, clock) = (settings.pairingInterval, settings.clock)
        pairingTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: interval)
                await self?.pair()
                await self?.expireRematches()
                await self?.expireChallenges()
            }
        }
    }

    /// Listens to the other nodes, takes over the games no live node hosts, and beats the
    /// heartbeat (taking over the games of nodes whose heartbeat stopped) from then on.
    private func startNode(_ cluster: any Cluster) async {
        let (listening, ready) = AsyncStream<Void>.makeStream()
        nodeTasks.append(
            Task { await cluster.runSending(refused: { [weak self] in await self?.dropped($0, to: $1) }) })
        let deliver: @Sendable (NodeMessage) async -> Void = { [weak self] in await self?.received($0) }
        let first = Atomic<Bool>(true)
        let listened: @Sendable () -> Void = { [weak self] in
            if first.exchange(false, ordering: .relaxed) {
                ready.yield()
            } else {
                Task { await self?.listeningAgain() }
            }
        }
        nodeTasks.append(Task { await cluster.runListening(listening: listened, deliver: deliver) })
        for await _ in listening { break }
        await takeOverGames()
        let (beat, clock) = (settings.heartbeat, settings.clock)
        nodeTasks.append(
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await clock.sleep(for: beat)
                    guard !Task.isCancelled else { return }
                    await self?.beatAndTakeOver()
                }
            })
    }

    /// Resumes stored games here, paused until their players are back.
    func resume(_ unfinished: [UnfinishedGame], engineGames: [Int64: Int]) async {
        for stored in unfinished {
            guard let id = stored.game.id else { continue }
            let start: Position
            let position: Position
            let moves: [Move]
            do {
                start = try stored.game.startPosition()
                (moves, position) = try start.replaying(stored.moves.map(\.notation))
            } catch let error as ReplayError {
                // Resuming from a shorter game than the one stored would be a wrong game.
                logger.error("game \(id) not resumed: stored move \(error.ply) cannot be replayed: \(error)")
                continue
            } catch {
                logger.error("game \(id) not resumed: \(error)")
                continue
            }
            let control = TimeControl(initial: stored.game.initial, increment: stored.game.increment)
            // The clocks as stored with the last move (without one, both initial clocks). Taken
            // over from a node that stopped or died, the side to move is charged nothing for the
            // time the game had no host: a server's crash costs no player the game.
            // Stopped in order at this ply, the clocks as they stood then: the time used before the
            // stop is charged, none after.
            let clocks =
                stored.game.stopClocks(atPly: stored.moves.count)
                ?? stored.moves.last.map { Clocks(x: $0.xClock, o: $0.oClock) }
            let game = makeGame(
                id: id, control: control, x: stored.x, o: stored.o, start: start, position: position,
                moves: moves, clocks: clocks, isRated: engineGames[id] == nil && !stored.game.casual)
            await game.resume()
            if await game.hasEnded {
                // Its stored moves had ended it: the rules' result is stored now. Off the books
                // before the start returns, not only when the game's own call comes.
                ended(game)
                continue
            }
            if let level = engineGames[id] { await seatEngine(level: level, in: game) }
            logger.info("game \(id) resumed after \(moves.count) moves")
        }
    }

    /// Stops everything at once, as if the process died: no game, seek or node row is let go
    /// (for tests of a node that dies; the other nodes take its games once its lease is over).
    func abandon() async {
        pairingTask?.cancel()
        for task in nodeTasks { task.cancel() }
        for game in games.values { await game.halt() }
        games = [:]
        gameOf = [:]
    }

    /// The first step of a stop: from now on no game starts here (a seek, an accepted challenge
    /// or rematch, a game against the engine get `shutting_down`) and no pairing pass runs.
    func refuseNewGames() {
        refusesNewGames = true
        pairingTask?.cancel()
    }

    /// Stops pairing and halts every game in progress where it stands, its clocks stored: those
    /// being started as the stop began too, once they are.
    func stop() async {
        refuseNewGames()
        await untilGamesStarted()
        for task in nodeTasks { task.cancel() }
        for game in games.values { await game.stop() }
        games = [:]
        gameOf = [:]
        if let cluster {
            // Its games wait for the next node to take them (at its next heartbeat or start).
            // Not for long: without a database (it may be why the server stops), the other
            // nodes take them once this one's lease is over.
            let left = await withTaskGroup(of: Bool.self) { group in
                group.addTask { (try? await cluster.leave()) != nil }
                group.addTask {
                    try? await Task.sleep(for: .seconds(2))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
            if !left {
                logger.error("leaving the other nodes failed: they take its games once its lease is over")
            }
        }
    }

    // MARK: Presence

    /// A player logged in on a connection: it gets `welcome` (the reply to request `id`), then
    /// their messages from now on and the state of their game in progress, if any. Their older
    /// connection, if any, is told `superseded` and closed (its seek goes with it), so that one
    /// connection speaks for a player at a time.
    ///
    /// With other nodes, the login draws its ticket before `welcome` goes out: a client that
    /// heard `welcome` here and then logs in on another node draws a larger ticket there, so the
    /// newer connection is the one that stays.
    func attach(
        _ player: PlayerRow, token: [UInt8], outbox: Outbox, welcome: Welcome, id requestID: RequestID?
    ) async {
        guard let id = player.id else {
            outbox.send(.welcome(welcome), id: requestID)
            return
        }
        var ticket: Int64 = 0
        if let cluster {
            // Without a ticket, any login elsewhere supersedes this one, and this one every other.
            loginsInProgress[id, default: 0] += 1
            ticket = (try? await cluster.nextLoginTicket()) ?? 0
            cluster.send(
                .loggedIn(player: id, node: cluster.node, ticket: ticket == 0 ? .max : ticket), to: nil)
        }
        let laterElsewhere = cluster == nil ? nil : loginEnded(id)
        guard outbox.isOpen() else { return }
        outbox.send(.welcome(welcome), id: requestID)
        var supersededHere = false
        if let older = connections[id]?.outbox, older != outbox {
            supersededHere = true
            older.send(.superseded)
            older.close()
            matchmaker.remove(id)
            seekers[id] = nil
            // As when a player leaves: their rematch offers lapse.
            moveOn(id)
        }
        connections[id] = (outbox, token)
        if await revokedMeanwhile(id, token: token, outbox: outbox) { return }
        // At once, with no wait between: a challenge another node tells of from now on is told to
        // this connection when it arrives, one told before is told here, and none twice.
        tellChallenges(of: id, outbox: outbox)
        loginTickets[id] = nil
        if let cluster {
            loginTickets[id] = ticket
            // Notifications may arrive late: a newer login elsewhere heard of while this one's
            // ticket was drawn supersedes it now.
            if let laterElsewhere, laterElsewhere > ticket {
                outbox.send(.superseded)
                outbox.close()
                await detach(id, outbox: outbox)
                return
            }
            if supersededHere {
                _ = try? await withdrawSharedSeek(of: id, cluster: cluster)
                guard connections[id]?.outbox == outbox else { return }
            }
        }
        if let game = gameOf[id], let side = game.side(of: id) {
            // Here, not on another node any more (if they played from one).
            crossing.remoteSides[game.id]?[side] = nil
            await game.rejoin(side, outbox: outbox)
        } else if let cluster {
            await attachElsewhere(id, cluster: cluster)
        }
    }

    /// One login of `player` here has its ticket: the newest login elsewhere heard of meanwhile.
    private func loginEnded(_ player: Int64) -> Int64? {
        let later = loginsElsewhere[player]
        if let count = loginsInProgress[player], count > 1 {
            loginsInProgress[player] = count - 1
        } else {
            loginsInProgress[player] = nil
            loginsElsewhere[player] = nil
        }
        return later
    }

    /// A player's connection closed or logged out: their seek goes, their game goes on.
    func detach(_ playerID: Int64, outbox: Outbox) async {
        guard connections[playerID]?.outbox == outbox else { return }
        connections[playerID] = nil
        loginTickets[playerID] = nil
        matchmaker.remove(playerID)
        seekers[playerID] = nil
        moveOn(playerID)
        withdrawChallenges(of: playerID)
        if let game = gameOf[playerID], let side = game.side(of: playerID) {
            await game.left(side, outbox: outbox)
        } else if let cluster {
            detachElsewhere(playerID)
            _ = try? await withdrawSharedSeek(of: playerID, cluster: cluster)
        }
    }

    /// A player logged out on `outbox`, ending the session of `token` (its digest; `nil`: every
    /// token of the player): any other live connection on it, here or on another node, gets
    /// `bye` and is closed too.
    func logOut(_ playerID: Int64, token: [UInt8]?, outbox: Outbox) async {
        await closeSession(of: playerID, token: token, except: outbox)
        await detach(playerID, outbox: outbox)
        cancelChallenges(waitingFor: playerID)
        if let cluster {
            cluster.send(.loggedOut(player: playerID, digest: token, node: cluster.node), to: nil)
        }
    }

    /// Tells the player's connection here on `token` (`nil`: on any) `bye` and closes it, unless
    /// it is `except`.
    func closeSession(of playerID: Int64, token: [UInt8]?, except: Outbox? = nil) async {
        heardLogout(of: playerID)
        guard let live = connections[playerID], live.outbox != except, token == nil || live.token == token
        else { return }
        live.outbox.send(.bye)
        live.outbox.close()
        await detach(playerID, outbox: live.outbox)
    }

    // MARK: Seeking

    /// Refuses a seek from a connection that is no longer the player's, or from a player with a
    /// game in progress or starting.
    func checkMayStartAGame(_ id: Int64, outbox: Outbox) async throws(ProtocolError) {
        guard !refusesNewGames else { throw Self.shuttingDown }
        guard connections[id]?.outbox == outbox else {
            throw ProtocolError(.notAuthenticated, "this session was taken over by another login")
        }
        // A game that has just ended may not have been taken off the books yet; its players
        // have had their `end` already and may seek again: it is taken off now, so that the
        // start this check comes before sees no game (`hasGame`). One whose result is still
        // being stored has not ended yet: its players have not had their `end`.
        if let game = gameOf[id] {
            guard await game.hasEnded else { throw ProtocolError(.inGame, "you have a game in progress") }
            ended(game)
        }
        guard !starting.contains(id) else { throw ProtocolError(.alreadySeeking, "your game is starting") }
        // Playing a game hosted by another node.
        guard crossing.seats[id] == nil else { throw ProtocolError(.inGame, "you have a game in progress") }
    }

    /// Puts a seek in the pool and tells the player `seeking`, then asks for a pairing pass.
    /// Seeks that arrive together share one pass, and none waits for it.
    func seek(
        _ seeker: Seeker, control: TimeControl, layout: Layout = .standard, outbox: Outbox,
        requestID: RequestID?
    )
        async throws(ProtocolError)
    {
        if let cluster {
            return try await seekShared(
                seeker, control: control, layout: layout, outbox: outbox, requestID: requestID,
                cluster: cluster)
        }
        guard let id = seeker.player.id else { return }
        try await checkMayStartAGame(id, outbox: outbox)
        moveOn(id)
        try matchmaker.add(
            .init(
                playerID: id, rating: seeker.player.rating, control: control, since: settings.clock.now,
                layout: layout))
        seekers[id] = seeker
        // Sent from here, so that it is always ahead of the `start` a pass may send.
        outbox.send(.seeking, id: requestID)
        requestPairing()
    }

    /// Asks for a pairing pass; requests that come before it starts share it.
    func requestPairing() {
        guard !pairingRequested else { return }
        pairingRequested = true
        Task { await self.pair() }
    }

    /// Takes the player's seek out of the pool, and with several nodes out of the shared one.
    func cancel(_ playerID: Int64) async {
        matchmaker.remove(playerID)
        seekers[playerID] = nil
        guard let cluster else { return }
        do {
            try await withdrawSharedSeek(of: playerID, cluster: cluster)
        } catch {
            logger.error("removing a seek failed: \(error)")
        }
    }

    /// Takes the seeks of `players`, counted as starting another game (`startingGame`), out of
    /// the pool. With several nodes a pass may have paired a shared seek first (its game is
    /// being started, here or on another node, and soon is theirs): then this start is refused.
    ///
    /// - Throws: `in_game` when a seek was paired or a game came meanwhile; `internal_error`
    ///   when the shared pool cannot be reached (the seek stays).
    func takeSeeks(of players: [Int64]) async throws(ProtocolError) {
        for player in players {
            matchmaker.remove(player)
            seekers[player] = nil
        }
        guard let cluster else { return }
        for player in players {
            let sought = crossing.sharedSeekers.remove(player) != nil
            let removed: Bool
            do {
                removed = try await cluster.removeSeek(playerID: player)
            } catch {
                logger.error("removing a seek failed: \(error)")
                guard sought else { continue }
                crossing.sharedSeekers.insert(player)
                throw ProtocolError(.internalError, "the server failed; nothing changed")
            }
            guard removed || !sought else { throw Self.alreadyPlaying }
        }
        // Paired by a pass whose game got here while the pool was asked.
        guard !players.contains(where: hasGameOnTheBooks) else {
            throw Self.alreadyPlaying
        }
    }

    /// Takes the player's seek out of the pool the nodes share; returns whether it was there.
    @discardableResult
    func withdrawSharedSeek(of playerID: Int64, cluster: any Cluster) async throws -> Bool {
        crossing.sharedSeekers.remove(playerID)
        return try await cluster.removeSeek(playerID: playerID)
    }

    /// Pairs whoever can be paired now and starts their games.
    func pair() async {
        pairingRequested = false
        guard !refusesNewGames else { return }
        if let cluster { return await pairShared(cluster: cluster) }
        for (first, second) in matchmaker.pairs(now: settings.clock.now) {
            await startGame(first, second)
        }
    }

    /// Stores the new game, then starts it. Storing happens on the storage threads: meanwhile
    /// the lobby serves others, and the two players count as `starting`.
    private func startGame(_ first: Matchmaker.Seek, _ second: Matchmaker.Seek) async {
        let marked = await markedSinceTheySought([first.playerID, second.playerID])
        // Still seeking as when the pass took them out of the pool: not stopped, and not sought
        // again (a new seek waits in the pool) while an earlier pair of the pass was stored.
        let stillSeeking = { (seek: Matchmaker.Seek) in
            self.seekers[seek.playerID] != nil && !self.matchmaker.isSeeking(seek.playerID)
        }
        // Read as they sought, so a pass reads only their marks and writes only the new games.
        guard stillSeeking(first), stillSeeking(second), let a = seekers[first.playerID],
            let b = seekers[second.playerID]
        else {
            // One of them stopped seeking (cancelled, left, or sought the computer) or sought
            // again: the other still seeks, so back to the pool, and to another pass.
            for seek in [first, second] where stillSeeking(seek) {
                try? matchmaker.add(seek)
            }
            requestPairing()
            return
        }
        guard marked.isEmpty else {
            // Out of rated pairing: a marked player's seek goes, the other's back to the pool.
            for seek in [first, second] where !marked.contains(seek.playerID) { try? matchmaker.add(seek) }
            for player in marked { await self.marked(player) }
            requestPairing()
            return
        }
        // Colours even out over each player's games: the one who has had x less often gets it.
        let aIsX = a.colourBalance == b.colourBalance ? Bool.random() : a.colourBalance < b.colourBalance
        let (x, o) = aIsX ? (a.player, b.player) : (b.player, a.player)
        let id: Int64
        let (xID, oID, control, now) = (x.id!, o.id!, first.control, settings.clock.date)
        do {
            try startingGame(of: [xID, oID])
        } catch {
            // Stopping: their seeks end with the server. Or one of them has another game,
            // started while the pass waited: their seek is over, the other's back to the pool.
            guard error.code == .inGame else { return }
            for seek in [first, second] {
                if hasGame(seek.playerID) {
                    seekers[seek.playerID] = nil
                } else {
                    try? matchmaker.add(seek)
                }
            }
            requestPairing()
            return
        }
        defer { startedGame(of: [xID, oID]) }
        moveOn(xID)
        moveOn(oID)
        do {
            id = try await storage.createGame(
                xID: xID, oID: oID, control: control, now: now, casual: false,
                start: Self.storedStart(first.layout.position))
        } catch {
            // Both stay in the pool, as they were (unless they left meanwhile), and hear why
            // nothing started yet.
            logger.error("starting a game failed: \(error)")
            for seek in [first, second] where connections[seek.playerID] != nil {
                try? matchmaker.add(seek)
                connections[seek.playerID]?.outbox.send(
                    .error(
                        ProtocolError(
                            .internalError, "a game could not be started; you are still seeking")))
            }
            return
        }
        seekers[a.player.id!] = nil
        seekers[b.player.id!] = nil
        // The outboxes go in at once, so a player who leaves before `start` is sent is not missed.
        let outboxes = [Side.x: connections[x.id!]?.outbox, .o: connections[o.id!]?.outbox].compactMapValues {
            $0
        }
        let game = makeGame(
            id: id, control: first.control, x: x, o: o, start: first.layout.position,
            position: first.layout.position, moves: [], clocks: nil, outboxes: outboxes)
        logger.info(
            "game \(id) started: \(x.name) (x) v \(o.name) (o) at \(first.control) from \(first.layout)")
        Task { await game.begin() }
    }

    func makeGame(
        id: Int64, control: TimeControl, x: PlayerRow, o: PlayerRow, start: Position = .start,
        position: Position,
        moves: [Move], clocks: Clocks?, outboxes: [Side: Outbox] = [:], isRated: Bool = true
    ) -> Game {
        let players: [Side: Game.Player] = [
            .x: .init(id: x.id!, name: x.name, rating: x.rating),
            .o: .init(id: o.id!, name: o.name, rating: o.rating),
        ]
        let game = Game(
            id: id, control: control, players: players, start: start, position: position, moves: moves,
            clocks: clocks,
            outboxes: outboxes, isRated: isRated,
            storage: storage, settings: settings, logger: logger
        ) { [weak self] game in
            await self?.ended(game)
        } onRefused: { [weak self] game in
            await self?.refused(game)
        }
        games[id] = game
        gameOf[x.id!] = game
        gameOf[o.id!] = game
        return game
    }

    /// Takes a game that has ended off the books (once: the game's own call after its `end`
    /// may come after a `rematch` did it).
    func ended(_ game: Game) {
        guard games[game.id] === game else { return }
        games[game.id] = nil
        (liveList, liveRead) = (nil, nil)
        let againstTheEngine = isAgainstTheEngine(game)
        let remote = againstTheEngine ? [] : keepRemoteRematchers(of: game)
        endedElsewhere(game)
        for player in game.players.values where gameOf[player.id] === game {
            gameOf[player.id] = nil
        }
        guard !againstTheEngine else {
            bookEngineGame(game)
            return
        }
        rematches.ended(
            Rematches.Ended(
                game: game.id, x: game.players[.x]!.id, o: game.players[.o]!.id, control: game.control,
                start: game.start, rated: game.isRated),
            connected: Set(
                game.players.values.map(\.id).filter { connections[$0] != nil || remote.contains($0) }))
    }

    // MARK: Playing

    /// The game in progress with this id in which the player plays, and their side.
    func game(_ id: Int64, of playerID: Int64) throws(ProtocolError) -> (Game, Side) {
        guard let game = games[id], let side = game.side(of: playerID) else {
            throw ProtocolError(.noSuchGame, "you have no game \(id) in progress")
        }
        return (game, side)
    }
}
