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
    /// clients asking often cost one walk over the games between them; with several nodes,
    /// requests that come while the list is being read wait for that read.
    func live(limit: Int = 50) async -> [LiveGame] {
        if let liveList, settings.clock.now - liveList.readAt < settings.liveListLifetime {
            return liveList.games
        }
        if let cluster {
            if let liveRead {
                liveReadsShared += 1
                return await liveRead.value
            }
            let read = Task { await liveEverywhere(limit: limit, cluster: cluster) }
            liveRead = read
            let games = await read.value
            // A game that ended meanwhile dropped the read (`ended`): its list is not kept.
            if liveRead == read {
                (liveList, liveRead) = ((games, settings.clock.now), nil)
            }
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
