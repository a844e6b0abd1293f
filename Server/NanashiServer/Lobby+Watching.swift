import Foundation
import Logging
import NanashiAI
import NanashiCluster
import NanashiCore
import NanashiProtocol
import NanashiStorage
import Synchronization

/// The games in progress as watchers see them: the `live` list and watching.
extension Lobby {
    // MARK: Watching

    /// The games in progress, highest-rated first (by the mean of both ratings as they
    /// started), at most `limit`. Read at most once per `settings.liveListLifetime`, so that
    /// clients asking often cost one walk over the games between them.
    func live(limit: Int = 50) async -> [LiveGame] {
        if let liveList, settings.clock.now - liveList.readAt < settings.liveListLifetime {
            return liveList.games
        }
        if let cluster {
            let games = await liveEverywhere(limit: limit, cluster: cluster)
            liveList = (games, settings.clock.now)
            return games
        }
        let games = games.values.sorted { ($0.rating, $1.id) > ($1.rating, $0.id) }.prefix(limit).map(\.live)
        liveList = (Array(games), settings.clock.now)
        return Array(games)
    }

    /// How many games are in progress.
    var gamesInProgress: Int { games.count }

    /// Whether the game with this id is in progress here.
    func isInProgress(_ id: Int64) -> Bool { games[id] != nil }

    /// Whether the game with this id is in progress on any node: here, or (with several nodes)
    /// hosted by a live one, which a watcher here follows as `live` lists it.
    func isInProgressAnywhere(_ id: Int64) async -> Bool {
        if games[id] != nil { return true }
        guard let cluster else { return false }
        do {
            return try await cluster.host(ofGame: id, aliveAfter: aliveAfter) != nil
        } catch {
            logger.error("reading game \(id)'s host failed: \(error)")
            return false
        }
    }

    /// The game in progress with this id, to watch.
    func watchable(_ id: Int64) throws(ProtocolError) -> Game {
        guard let game = games[id] else { throw ProtocolError(.noSuchGame, "no game \(id) is in progress") }
        return game
    }

    /// A logged-in player watches a game: their rematch offer, if any, lapses.
    func watching(_ playerID: Int64) {
        moveOn(playerID)
    }

}
