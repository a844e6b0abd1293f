import Foundation
import Logging
import NanashiAI
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTransport
import Synchronization

/// Rematches of finished games between people here (across nodes: Lobby+Received).
extension Lobby {
    // MARK: Rematches

    /// `playerID` asks for a rematch of `gameID`: the opponent is offered it, or, if they asked
    /// too, the new game starts with colours swapped.
    func rematch(
        _ gameID: Int64, by playerID: Int64, from address: String, outbox: Outbox, requestID: RequestID?
    )
        async throws(ProtocolError)
    {
        guard connections[playerID]?.outbox == outbox else {
            throw ProtocolError(.notAuthenticated, "this session was taken over by another login")
        }
        // The `end` may have reached the player before the game told the lobby it ended.
        if let game = games[gameID], game.side(of: playerID) != nil, await game.hasEnded { ended(game) }
        if try await rematchEngine(gameID, by: playerID, from: address, outbox: outbox, requestID: requestID)
        {
            return
        }
        if rematchElsewhere(gameID, by: playerID, requestID: requestID) { return }
        try await offerRematch(gameID, by: playerID, outbox: outbox, requestID: requestID)
    }

    /// `playerID` (here, or on another node, answered through `outbox`) asks for a rematch of
    /// `gameID`, which ended here.
    func offerRematch(_ gameID: Int64, by playerID: Int64, outbox: Outbox, requestID: RequestID?)
        async throws(ProtocolError)
    {
        let expires = settings.clock.now + settings.rematchOfferLifetime
        switch rematches.offer(gameID, by: playerID, expires: expires) {
        case .noSuchGame:
            throw ProtocolError(.noSuchGame, "you have no finished game \(gameID) to rematch")
        case .offered(let opponent, let first):
            outbox.send(.rematchOffered(game: gameID), id: requestID)
            guard first else { return }
            guard let other = rematchOutbox(of: opponent) else {
                // Gone without the lobby hearing of it yet: the offer lapses at once.
                tellLapsed(rematches.moveOn(opponent))
                return
            }
            other.send(.rematchOffer(game: gameID))
        case .accepted(let ended):
            outbox.send(.rematchOffered(game: gameID), id: requestID)
            await startRematch(of: ended)
        }
    }

    /// Starts the game both players of `ended` asked for, colours swapped, at its time control.
    private func startRematch(of ended: Rematches.Ended) async {
        let (xID, oID, now) = (ended.o, ended.x, settings.clock.date)
        do {
            try startingGame(of: [xID, oID])
        } catch {
            for player in [xID, oID] { rematchOutbox(of: player)?.send(.error(error)) }
            return
        }
        defer { startedGame(of: [xID, oID]) }
        let stored: (x: PlayerRow, o: PlayerRow, game: Int64)?
        do {
            if let x = try await storage.player(id: xID), let o = try await storage.player(id: oID) {
                let game = try await storage.createGame(
                    xID: xID, oID: oID, control: ended.control, now: now, casual: !ended.rated,
                    start: ended.start == .start ? nil : ended.start.fen)
                try await cluster?.hosts(game: game)
                stored = (x, o, game)
            } else {
                stored = nil
            }
        } catch {
            logger.error("starting a rematch failed: \(error)")
            stored = nil
        }
        guard let stored else {
            for player in [xID, oID] {
                rematchOutbox(of: player)?.send(
                    .error(ProtocolError(.internalError, "the rematch could not be started")))
            }
            return
        }
        var outboxes: [Side: Outbox] = [:]
        for (side, player) in [(Side.x, xID), (.o, oID)] {
            if let outbox = connections[player]?.outbox {
                outboxes[side] = outbox
            } else if let remote = crossing.rematchers.removeValue(forKey: player) {
                // On another node: a seat there, relayed as in any game across nodes.
                outboxes[side] = startRemoteSide(side, of: stored.game, player: player, node: remote.node)
            }
        }
        let game = makeGame(
            id: stored.game, control: ended.control, x: stored.x, o: stored.o, start: ended.start,
            position: ended.start, moves: [], clocks: nil, outboxes: outboxes, isRated: ended.rated)
        logger.info("game \(stored.game) started: rematch of game \(ended.game) at \(ended.control)")
        await game.begin()
    }

    /// Lapses the rematch of a player's last game, telling whoever had offered it.
    func moveOn(_ playerID: Int64) {
        engineGames.moveOn(playerID)
        tellLapsed(rematches.moveOn(playerID))
        movedOnElsewhere(playerID)
    }

    /// Tells the players who had offered a rematch that lapsed.
    private func tellLapsed(_ lapse: Rematches.Lapse?) {
        guard let lapse else { return }
        for player in lapse.offerers {
            rematchOutbox(of: player)?.send(.rematchDeclined(game: lapse.game))
        }
    }

    func expireRematches() {
        for lapse in rematches.expire(now: settings.clock.now) { tellLapsed(lapse) }
    }

}
