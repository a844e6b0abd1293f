import Foundation
import NanashiCore
import NanashiProtocol
import NanashiStorage

/// This server as one node of several that share one database: the messages it sends the
/// other nodes and receives from them, which node is alive and hosts which game, and the pool
/// of seeks they pair together.
///
/// Messages to a node arrive in the order they were sent, or not at all (a node that is not
/// listening misses them: it says `listening` again and is told what it missed). A node is
/// alive while its heartbeat is newer than `aliveAfter`; a game whose host is not alive is
/// claimed by the next node that looks, and only by one.
///
/// Two implementations: `PostgresCluster` (nodes on one PostgreSQL database, `NOTIFY` and
/// `LISTEN`) and `InMemoryCluster` (nodes in one process, for tests without a database).
package protocol Cluster: AnyObject, Sendable {
    /// This node's number, given when it joined.
    var node: Int64 { get }

    // MARK: Messages

    /// Queues a message for `node` (`nil`: every other node); never waits. A message that
    /// cannot be sent is handed to `runSending`'s `refused`.
    func send(_ message: NodeMessage, to node: Int64?)

    /// Sends what is queued until cancelled; each message dropped is handed to `refused` with
    /// the node it was for (`nil`: every node), in order.
    func runSending(refused: @escaping @Sendable (NodeMessage, Int64?) async -> Void) async

    /// Hands each message for this node to `deliver`, in order, until cancelled; `listening`
    /// is told each time it starts listening (again, after missing messages).
    func runListening(
        listening: @escaping @Sendable () -> Void, deliver: @escaping @Sendable (NodeMessage) async -> Void
    ) async

    // MARK: Nodes

    /// Says this node is alive at `now`, within `limit`, and drops the seeks of
    /// nodes not seen since `aliveAfter`.
    func heartbeat(now: Date, aliveAfter: Date, within limit: Duration) async throws

    /// Leaves in order: this node's games are hosted by nobody, its seeks go, and the other
    /// nodes are told (`NodeMessage.left`), so that they claim its games at once rather than at
    /// their next heartbeat.
    func leave() async throws

    /// The next number of a login on any node, greater than every one before.
    func nextLoginTicket() async throws -> Int64

    // MARK: Games and their hosts

    /// Says that this node hosts game `id`, which it just created (in storage).
    func hosts(game id: Int64) async throws

    /// Makes this node the host of the unfinished games (all, or those of `ids`) that no node
    /// alive since `aliveAfter` hosts; returns their ids.
    func claimGames(aliveAfter: Date, ids: [Int64]?) async throws -> [Int64]

    /// Lets go of the games of `ids` that this node hosts, for the next claim.
    func releaseGames(ids: [Int64]) async throws

    /// The live node hosting the unfinished game `id`, if any.
    func host(ofGame id: Int64, aliveAfter: Date) async throws -> Int64?

    /// A player's unfinished game, their side and its host, if that host is alive.
    func unfinishedGame(of playerID: Int64, aliveAfter: Date) async throws -> (
        game: Int64, side: Side, host: Int64?
    )?

    /// The unfinished games of `ids`, with their players and moves, as stored.
    func unfinishedGames(ids: [Int64]) async throws -> [UnfinishedGame]

    /// How game `id` ended, as stored (each side's rating before and after); `nil` while it is
    /// not over.
    func storedEnd(ofGame id: Int64) async throws -> (outcome: Outcome, ratings: [Side: RatingChange])?

    /// The games in progress on live nodes, highest-rated first, at most `limit`.
    func liveGames(limit: Int, aliveAfter: Date) async throws -> [LiveGame]

    // MARK: The seek pool

    /// Adds this node's player's seek to the pool (replacing their seek on another node).
    ///
    /// - Throws: `ProtocolError` `alreadySeeking` or `inGame`.
    func addSeek(_ seek: SharedSeek) async throws

    /// Takes a player's seek made on this node out of the pool, if it is still there; returns
    /// whether it was.
    @discardableResult
    func removeSeek(playerID: Int64) async throws -> Bool

    /// One pairing pass over the pool: `pick` chooses pairs among the oldest seeks of live
    /// nodes (this node's own first), whose games are created, hosted here, and whose seeks go.
    /// Returns the games; whether the batch was full and whether seeks were skipped (taken by
    /// another node's pass), so that the pass may be tried again.
    func pairSeeks(
        aliveAfter: Date, now: Date, limit: Int,
        pick: @Sendable ([SharedSeek]) -> [(first: SharedSeek, second: SharedSeek, firstIsX: Bool)]
    ) async throws -> (games: [SharedPairing], full: Bool, skipped: Bool)

    // MARK: Work for all the nodes

    /// Takes the nodes' turn at background analysis (`BackgroundAnalysis`) at `now`, unless a
    /// node took it less than `interval` before; returns whether this node took it. Of nodes
    /// trying at once, one takes it: the turns of all nodes together come at most once an
    /// interval (to the millisecond).
    func takeBackgroundTurn(now: Date, interval: Duration) async throws -> Bool
}
