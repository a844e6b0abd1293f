import Foundation
import NanashiAI
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport

/// Games against the built-in engine: started at once on a `seek` with `ai` (from the standard
/// start, a layout or a FEN of the player's own), never rated, played by an `EngineSeat` on the
/// engine pool.
extension Lobby {
    /// Starts a game against the engine at `level` for the seeker, who plays `seek.color` (or a
    /// side chosen at random) from `seek.start`, connected from `address`. Refused when the player has a game, or
    /// one starting, or has started too many lately (`rate_limited`), or when this node or the
    /// address has as many engine games as it may, or the engine pool's queue is full (`busy`).
    func seekEngine(
        _ seeker: Seeker, seek: EngineSeek, level: Level, from address: String, outbox: Outbox,
        requestID: RequestID?
    ) async throws(ProtocolError) {
        guard let id = seeker.player.id else { return }
        try await checkMayStartAGame(id, outbox: outbox)
        try await reserveAnEngineGame(id, from: address)
        defer { engineGames.release(id) }
        guard engines.hasRoom else {
            throw ProtocolError(.busy, "the engine is busy with other games; try again in a minute")
        }
        // A seek for a person lapses: the player is about to play.
        matchmaker.remove(id)
        seekers[id] = nil
        moveOn(id)
        outbox.send(.seeking, id: requestID)
        let side = seek.color ?? (Bool.random() ? .x : .o)
        await startEngineGame(
            seeker.player, side: side, level: level, control: seek.control, start: seek.start,
            address: address)
    }

    /// Reserves a new game against the engine for `playerID` at `address` (the caller releases
    /// it once the game started or will not), or refuses it past the limits: the player's games
    /// started lately, the node's engine games, the address's.
    private func reserveAnEngineGame(_ playerID: Int64, from address: String)
        async throws(ProtocolError)
    {
        // The `end` of one may have reached its player before the game told the lobby it ended.
        for id in engineGames.games(from: address) {
            if let game = games[id], await game.hasEnded { ended(game) }
        }
        try engineGames.reserve(playerID, from: address)
    }

    /// Stores and begins a game of `player`, on `side`, against the engine at `level`, from `start`.
    private func startEngineGame(
        _ player: PlayerRow, side: Side, level: Level, control: TimeControl, start: Position, address: String
    ) async {
        guard let id = player.id else { return }
        do {
            try startingGame(of: [id])
        } catch {
            connections[id]?.outbox.send(.error(error))
            return
        }
        defer { startedGame(of: [id]) }
        // With several nodes a seek for a person is a shared row too, which another node would
        // otherwise pair once this game ends. (Taken out once `starting` holds the player, so
        // that a second seek meanwhile is refused; if a pass paired it first, that game is
        // theirs and this one does not start.)
        do {
            try await takeSeeks(of: [id])
        } catch {
            connections[id]?.outbox.send(.error(error))
            return
        }
        let stored: (engine: PlayerRow, game: Int64)
        do {
            stored = try await storage.createEngineGame(
                playerID: id, side: side, level: level.number, control: control, now: settings.clock.date,
                start: Self.storedStart(start))
            try await cluster?.hosts(game: stored.game)
        } catch {
            logger.error("starting a game against the engine failed: \(error)")
            connections[id]?.outbox.send(
                .error(ProtocolError(.internalError, "the game could not be started; nothing changed")))
            return
        }
        guard let engineID = stored.engine.id else { return }
        engineGames.started(stored.game, of: id, engine: engineID, level: level, from: address)
        let seat = EngineSeat(
            level: level, side: side.opponent, game: stored.game, owner: address, pool: engines,
            clock: settings.clock,
            logger: logger)
        var outboxes = [side.opponent: seat.outbox]
        outboxes[side] = connections[id]?.outbox
        let (x, o) = side == .x ? (player, stored.engine) : (stored.engine, player)
        let game = makeGame(
            id: stored.game, control: control, x: x, o: o, start: start, position: start, moves: [],
            clocks: nil, outboxes: outboxes, isRated: false)
        seat.seat(in: game)
        logger.info(
            "game \(stored.game) started: \(x.name) (x) v \(o.name) (o) at \(control)\(start == .start ? "" : " from \(start.fen)"), unrated"
        )
        await game.begin()
    }

    /// Seats the engine again in a game resumed after a restart: it gets the game as it stands,
    /// and moves if it is its turn.
    func seatEngine(level number: Int, in game: Game) async {
        guard let level = Level(number) else { return }
        let name = EnginePlayer.name(level: number)
        guard let side = Side.allCases.first(where: { game.players[$0]?.name == name }),
            let engineID = game.players[side]?.id
        else { return }
        engineGames.seated(engineID, level: level)
        let seat = EngineSeat(
            level: level, side: side, game: game.id, pool: engines,
            clock: settings.clock, logger: logger)
        seat.seat(in: game)
        await game.rejoin(side, outbox: seat.outbox)
    }

    /// Whether one of `game`'s players is the engine (a casual game between people is not).
    func isAgainstTheEngine(_ game: Game) -> Bool {
        game.players.values.contains { engineGames.isEngine($0.id) }
    }

    /// Books a game against the engine that ended: its player, if connected, may rematch it.
    func bookEngineGame(_ game: Game) {
        let ended = Rematches.Ended(
            game: game.id, x: game.players[.x]!.id, o: game.players[.o]!.id, control: game.control,
            start: game.start, rated: false)
        engineGames.ended(ended, connected: game.players.values.map(\.id).filter { connections[$0] != nil })
    }

    /// A rematch of the player's last game against the engine starts at once, colours swapped,
    /// from the same start;
    /// returns false (doing nothing) when `gameID` is not that game. Refused as a new `seek`
    /// with `ai` is: with a game in progress or starting, or when the engine is `busy`.
    func rematchEngine(
        _ gameID: Int64, by playerID: Int64, from address: String, outbox: Outbox, requestID: RequestID?
    ) async throws(ProtocolError) -> Bool {
        guard let rematch = engineGames.rematch(of: gameID, by: playerID) else { return false }
        let (ended, level) = rematch
        let engine = ended.opponent(of: playerID)
        try await checkMayStartAGame(playerID, outbox: outbox)
        try await reserveAnEngineGame(playerID, from: address)
        defer { engineGames.release(playerID) }
        guard engines.hasRoom else {
            throw ProtocolError(.busy, "the engine is busy with other games; try again in a minute")
        }
        // Checked again: the checks waited for a game.
        guard engineGames.rematch(of: gameID, by: playerID) != nil, !starting.contains(playerID) else {
            return false
        }
        engineGames.moveOn(playerID)
        outbox.send(.rematchOffered(game: gameID), id: requestID)
        let side: Side = ended.x == engine ? .x : .o
        guard let player = try? await storage.player(id: playerID) else {
            outbox.send(.error(ProtocolError(.internalError, "the rematch could not be started")))
            return true
        }
        await startEngineGame(
            player, side: side, level: level, control: ended.control, start: ended.start, address: address)
        return true
    }
}
