import Foundation
import Logging
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage

/// The nodes, their games and their seeks, as PostgreSQL's rows hold them.
extension PostgresCluster {
    /// Joins the nodes on `storage`'s database: a row of its own, and the host of the games
    /// `storage` creates from now on.
    package static func join(
        _ storage: PostgresStorage, now: Date, gather: Duration = .zero, clock: any ServerClock,
        logger: Logger
    ) async throws -> PostgresCluster {
        PostgresCluster(
            node: try await storage.joinAsNode(now: now), storage: storage, gather: gather, clock: clock,
            logger: logger)
    }

    package func heartbeat(now: Date, aliveAfter: Date, within limit: Duration) async throws {
        try await storage.heartbeat(node: node, now: now, aliveAfter: aliveAfter, within: limit, clock: clock)
    }

    /// Told at once, not through the queue: the sending task stops with the node.
    package func leave() async throws {
        try await storage.leave(node: node)
        try await storage.notify([(Self.everyNode, "0 " + NodeMessage.left(node: node).payload())])
    }

    package func nextLoginTicket() async throws -> Int64 { try await storage.nextLoginTicket() }

    /// Nothing to say: the game's row names its host from its creation.
    package func hosts(game id: Int64) async throws {}

    package func claimGames(aliveAfter: Date, ids: [Int64]?) async throws -> [Int64] {
        try await storage.claimGames(node: node, aliveAfter: aliveAfter, ids: ids)
    }

    package func releaseGames(ids: [Int64]) async throws {
        try await storage.releaseGames(ids: ids, node: node)
    }

    package func host(ofGame id: Int64, aliveAfter: Date) async throws -> Int64? {
        try await storage.host(ofGame: id, aliveAfter: aliveAfter)
    }

    package func unfinishedGame(of playerID: Int64, aliveAfter: Date) async throws -> (
        game: Int64, side: Side, host: Int64?
    )? {
        try await storage.unfinishedGame(of: playerID, aliveAfter: aliveAfter)
    }

    package func unfinishedGames(ids: [Int64]) async throws -> [UnfinishedGame] {
        try await storage.unfinishedGames(ids: ids)
    }

    package func storedEnd(ofGame id: Int64) async throws -> (
        outcome: Outcome, ratings: [Side: RatingChange]
    )? {
        try await storage.storedEnd(ofGame: id)
    }

    package func liveGames(limit: Int, aliveAfter: Date) async throws -> [LiveGame] {
        try await storage.liveGames(limit: limit, aliveAfter: aliveAfter)
    }

    package func addSeek(_ seek: SharedSeek) async throws { try await storage.addSeek(seek) }

    @discardableResult
    package func removeSeek(playerID: Int64) async throws -> Bool {
        try await storage.removeSeek(playerID: playerID, node: node)
    }

    package func pairSeeks(
        aliveAfter: Date, now: Date, limit: Int,
        pick: @Sendable ([SharedSeek]) -> [(first: SharedSeek, second: SharedSeek, firstIsX: Bool)]
    ) async throws -> (games: [SharedPairing], full: Bool, skipped: Bool) {
        try await storage.pairSeeks(node: node, aliveAfter: aliveAfter, now: now, limit: limit, pick: pick)
    }

    package func takeBackgroundTurn(now: Date, interval: Duration) async throws -> Bool {
        try await storage.takeBackgroundTurn(
            at: BackgroundTurn.milliseconds(now), every: interval.wholeMilliseconds)
    }
}
