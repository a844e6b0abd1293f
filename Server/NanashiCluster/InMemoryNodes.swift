import Foundation
import NanashiStorage
import Synchronization

/// What nodes in one process share besides their database: which node is alive, which hosts
/// each game, the seek pool, the login tickets and the way to each node's listener. Each node
/// has an `InMemoryCluster` on it, and a `Storage` of its own on the one database.
///
/// For tests of games across nodes without PostgreSQL: the same lobby and relay run as on
/// `PostgresCluster`, and messages travel in the same payloads (as `NOTIFY` carries them), to
/// every node listening, in order; a node not listening misses them, as on PostgreSQL.
package final class InMemoryNodes: Sendable {
    private let state = Mutex(State())

    package init() {}

    struct State {
        var lastNode: Int64 = 0
        /// Each node's last heartbeat.
        var seen: [Int64: Date] = [:]
        /// The host of each game a node created or claimed (`nil`: it left it for the next claim).
        var hosts: [Int64: Int64?] = [:]
        /// The games stored before the nodes first looked (left by an earlier run) are claimable
        /// without a host; any later game has one from its creation (`hosts`).
        var storedBefore: Int64?
        var seeks: [Int64: SharedSeek] = [:]
        var lastTicket: Int64 = 0
        /// Where each listening node's messages go, as payloads.
        var listeners: [Int64: AsyncStream<String>.Continuation] = [:]
        /// When a node last took the turn at background analysis, in milliseconds since 1970.
        var backgroundTurn: Int64?
        /// For tests of what happens while a seek is being stored: the next seek added stays
        /// in the pool (other nodes may pair it) but its `addSeek` returns only once this is
        /// resumed; `seekHeld` is told when it is in the pool.
        var seekGate: (held: @Sendable () -> Void, release: AsyncStream<Void>)?
        /// For tests of what happens while the live games are being read: each read, once it
        /// has its list, tells `entered`, then waits in `waiting` until the test lets it go.
        var liveHold: LiveHold?
    }

    struct LiveHold {
        let entered: @Sendable () -> Void
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// Holds every read of the live games (see `State.liveHold`): each calls `entered` once it
    /// has its list, then waits to return it until the function returned is called, which lets
    /// all of them go on and holds no more.
    package func holdLiveReads(entered: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        state.withLock { $0.liveHold = LiveHold(entered: entered) }
        return { [self] in
            let waiting = self.state.withLock { state in
                defer { state.liveHold = nil }
                return state.liveHold?.waiting ?? []
            }
            for reader in waiting { reader.resume() }
        }
    }

    /// Waits while reads of the live games are held (`holdLiveReads`).
    func waitIfLiveReadsHeld() async {
        guard let entered = state.withLock({ $0.liveHold?.entered }) else { return }
        entered()
        await withCheckedContinuation { reader in
            let held = state.withLock { state in
                guard state.liveHold != nil else { return false }
                state.liveHold?.waiting.append(reader)
                return true
            }
            if !held { reader.resume() }
        }
    }

    /// Holds the next seek added as it is being stored (see `State.seekGate`): `held` is called
    /// once it is in the pool; its `addSeek` returns after `release` yields or finishes.
    package func holdNextSeek(held: @escaping @Sendable () -> Void, release: AsyncStream<Void>) {
        state.withLock { $0.seekGate = (held, release) }
    }

    /// The hold `holdNextSeek` asked for, taken by the seek being added.
    func takeSeekGate() -> (held: @Sendable () -> Void, release: AsyncStream<Void>)? {
        state.withLock { state in
            defer { state.seekGate = nil }
            return state.seekGate
        }
    }

    /// A new node, alive at `now`, on `storage` (a connection of its own to the database the
    /// other nodes use).
    package func join(storage: any Storage, now: Date) -> InMemoryCluster {
        let node = state.withLock { state in
            state.lastNode += 1
            state.seen[state.lastNode] = now
            return state.lastNode
        }
        return InMemoryCluster(node: node, nodes: self, storage: storage)
    }

    /// Runs `body` on the shared state, alone.
    func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }

    /// The seeks in the pool.
    package func seeks() -> [SharedSeek] {
        state.withLock { Array($0.seeks.values) }
    }

    /// The live node hosting game `id`, if any.
    package func host(ofGame id: Int64, aliveAfter: Date) -> Int64? {
        state.withLock { $0.liveHost(of: id, aliveAfter: aliveAfter) }
    }

    /// When `node` last beat its heartbeat, if it is one of these nodes and has not left.
    package func lastHeartbeat(of node: Int64) -> Date? {
        state.withLock { $0.seen[node] }
    }
}

extension InMemoryNodes.State {
    func isAlive(_ node: Int64, after aliveAfter: Date) -> Bool {
        seen[node].map { $0 >= aliveAfter } ?? false
    }

    func liveHost(of game: Int64, aliveAfter: Date) -> Int64? {
        guard let host = hosts[game] ?? nil, isAlive(host, after: aliveAfter) else { return nil }
        return host
    }

    /// Whether a node may claim game `id`: no live node hosts it.
    func isClaimable(_ id: Int64, aliveAfter: Date) -> Bool {
        switch hosts[id] {
        case nil: id <= storedBefore ?? .max
        case let host??: !isAlive(host, after: aliveAfter)
        case .some(nil): true
        }
    }
}
