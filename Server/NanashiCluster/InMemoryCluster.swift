import Foundation
import NanashiCore
import NanashiProtocol
import NanashiStorage

/// One node of `InMemoryNodes`: nodes in one process on one database, for tests of games
/// across nodes without PostgreSQL. What PostgreSQL's rows hold (hosts, seeks, heartbeats) is
/// held by `InMemoryNodes`; the games themselves are read from this node's `storage`.
package final class InMemoryCluster: Cluster {
    package let node: Int64
    private let nodes: InMemoryNodes
    private let storage: any Storage

    init(node: Int64, nodes: InMemoryNodes, storage: any Storage) {
        self.node = node
        self.nodes = nodes
        self.storage = storage
    }

    // MARK: Messages

    /// Hands the message, as the payload `NOTIFY` would carry, to each node listening now (to
    /// every node, this one too, for `nil`).
    package func send(_ message: NodeMessage, to node: Int64?) {
        let payload = message.payload()
        nodes.withState { state in
            if let node {
                state.listeners[node]?.yield(payload)
            } else {
                for listener in state.listeners.values { listener.yield(payload) }
            }
        }
    }

    /// Nothing waits to be sent, and nothing is refused: returns once cancelled.
    package func runSending(refused: @escaping @Sendable (NodeMessage, Int64?) async -> Void) async {
        let (never, end) = AsyncStream<Void>.makeStream()
        await withTaskCancellationHandler {
            for await _ in never {}
        } onCancel: {
            end.finish()
        }
    }

    package func runListening(
        listening: @escaping @Sendable () -> Void, deliver: @escaping @Sendable (NodeMessage) async -> Void
    ) async {
        let (payloads, listener) = AsyncStream<String>.makeStream()
        let node = node
        nodes.withState { $0.listeners[node] = listener }
        listening()
        await withTaskCancellationHandler {
            for await payload in payloads {
                guard let message = try? NodeMessage(payload: payload[...]) else { continue }
                await deliver(message)
            }
        } onCancel: {
            listener.finish()
        }
        _ = nodes.withState { $0.listeners.removeValue(forKey: node) }
    }

    // MARK: Nodes

    package func heartbeat(now: Date, aliveAfter: Date, within limit: Duration) async throws {
        let node = node
        nodes.withState { state in
            state.seen[node] = max(state.seen[node] ?? now, now)
            state.seeks = state.seeks.filter { state.isAlive($0.value.node, after: aliveAfter) }
        }
    }

    package func leave() async throws {
        let node = node
        nodes.withState { state in
            for (game, host) in state.hosts where host == node { state.hosts[game] = .some(nil) }
            state.seeks = state.seeks.filter { $0.value.node != node }
            state.seen[node] = nil
            state.listeners[node] = nil
        }
        send(.left(node: node), to: nil)
    }

    package func nextLoginTicket() async throws -> Int64 {
        nodes.withState { state in
            state.lastTicket += 1
            return state.lastTicket
        }
    }

    // MARK: Games and their hosts

    package func hosts(game id: Int64) async throws {
        let node = node
        nodes.withState { $0.hosts[id] = node }
    }

    package func claimGames(aliveAfter: Date, ids: [Int64]?) async throws -> [Int64] {
        if let ids, ids.isEmpty { return [] }
        let unfinished = try await storage.unfinishedGames().compactMap(\.game.id)
        let node = node
        return nodes.withState { state in
            if state.storedBefore == nil { state.storedBefore = unfinished.max() ?? 0 }
            let wanted = ids.map(Set.init)
            let claimed = unfinished.filter {
                wanted?.contains($0) ?? true && state.isClaimable($0, aliveAfter: aliveAfter)
            }
            for id in claimed { state.hosts[id] = node }
            return claimed
        }
    }

    package func releaseGames(ids: [Int64]) async throws {
        let node = node
        nodes.withState { state in
            for id in ids where state.hosts[id] == node { state.hosts[id] = .some(nil) }
        }
    }

    package func host(ofGame id: Int64, aliveAfter: Date) async throws -> Int64? {
        guard try await storage.storedEnd(ofGame: id) == nil else { return nil }
        return nodes.host(ofGame: id, aliveAfter: aliveAfter)
    }

    package func unfinishedGame(of playerID: Int64, aliveAfter: Date) async throws -> (
        game: Int64, side: Side, host: Int64?
    )? {
        guard
            let found = try await storage.unfinishedGames().last(where: {
                $0.game.xID == playerID || $0.game.oID == playerID
            }), let id = found.game.id
        else { return nil }
        return (id, found.game.xID == playerID ? .x : .o, nodes.host(ofGame: id, aliveAfter: aliveAfter))
    }

    package func unfinishedGames(ids: [Int64]) async throws -> [UnfinishedGame] {
        let wanted = Set(ids)
        return try await storage.unfinishedGames().filter { $0.game.id.map(wanted.contains) ?? false }
    }

    package func storedEnd(ofGame id: Int64) async throws -> (
        outcome: Outcome, ratings: [Side: RatingChange]
    )? {
        try await storage.storedEnd(ofGame: id)
    }

    package func liveGames(limit: Int, aliveAfter: Date) async throws -> [LiveGame] {
        let unfinished = try await storage.unfinishedGames()
        let live = unfinished.filter {
            $0.game.id.map { nodes.host(ofGame: $0, aliveAfter: aliveAfter) != nil } ?? false
        }
        func mean(_ game: UnfinishedGame) -> Double { (game.x.rating + game.o.rating) / 2 }
        let games = live.sorted { (-mean($0), $0.game.id ?? 0) < (-mean($1), $1.game.id ?? 0) }.prefix(limit)
            .map {
                LiveGame(
                    game: $0.game.id ?? 0, x: GamePlayer(name: $0.x.name, rating: rounded($0.x.rating)),
                    o: GamePlayer(name: $0.o.name, rating: rounded($0.o.rating)),
                    control: TimeControl(initial: $0.game.initial, increment: $0.game.increment),
                    ply: $0.moves.count)
            }
        await nodes.waitIfLiveReadsHeld()
        return games
    }

    // MARK: The seek pool

    package func addSeek(_ seek: SharedSeek) async throws {
        guard try await unfinishedGame(of: seek.playerID, aliveAfter: .distantPast) == nil else {
            throw ProtocolError(.inGame, "you have a game in progress")
        }
        let added = nodes.withState { state in
            if let standing = state.seeks[seek.playerID], standing.node == seek.node { return false }
            state.seeks[seek.playerID] = seek
            return true
        }
        guard added else { throw ProtocolError(.alreadySeeking, "you are already seeking") }
        if let gate = nodes.takeSeekGate() {
            gate.held()
            for await _ in gate.release { break }
        }
    }

    @discardableResult
    package func removeSeek(playerID: Int64) async throws -> Bool {
        let node = node
        return nodes.withState { state in
            guard state.seeks[playerID]?.node == node else { return false }
            state.seeks[playerID] = nil
            return true
        }
    }

    /// Takes the batch's seeks out of the pool at once (no other pass sees them, so none is
    /// skipped), then creates the games `pick` chose, hosted here.
    package func pairSeeks(
        aliveAfter: Date, now: Date, limit: Int,
        pick: @Sendable ([SharedSeek]) -> [(first: SharedSeek, second: SharedSeek, firstIsX: Bool)]
    ) async throws -> (games: [SharedPairing], full: Bool, skipped: Bool) {
        let playing = Set(try await storage.unfinishedGames().flatMap { [$0.game.xID, $0.game.oID] })
        // A player marked for engine help is out of rated pairing, as with PostgreSQL.
        var marked: Set<Int64> = []
        for seeker in nodes.withState({ Array($0.seeks.keys) }) {
            if try await storage.player(id: seeker)?.engineHelpAt != nil { marked.insert(seeker) }
        }
        let node = node
        let (pairs, full) = nodes.withState { state in
            let waiting = state.seeks.values
                .filter {
                    state.isAlive($0.node, after: aliveAfter) && !playing.contains($0.playerID)
                        && !marked.contains($0.playerID)
                }
                .sorted { ($0.since, $0.playerID) < ($1.since, $1.playerID) }
            let half = max(1, limit / 2)
            let own = waiting.filter { $0.node == node }.prefix(half)
            let others =
                own.isEmpty ? [] : waiting.filter { $0.node != node }.prefix(max(1, limit - own.count))
            let seeks = (own + others).sorted { ($0.since, $0.playerID) < ($1.since, $1.playerID) }
            let pairs = seeks.count >= 2 ? pick(seeks) : []
            for pair in pairs {
                (state.seeks[pair.first.playerID], state.seeks[pair.second.playerID]) = (nil, nil)
            }
            return (pairs, own.count >= half)
        }
        var games: [SharedPairing] = []
        for pair in pairs {
            let (x, o) = pair.firstIsX ? (pair.first, pair.second) : (pair.second, pair.first)
            guard let xRow = try await storage.player(id: x.playerID),
                let oRow = try await storage.player(id: o.playerID)
            else { throw StorageError.damaged("a seeker of a new game is missing") }
            let layout = pair.first.layout
            let game = try await storage.createGame(
                xID: x.playerID, oID: o.playerID, control: pair.first.control, now: now, casual: false,
                start: layout.isStandard ? nil : layout.fen)
            try await hosts(game: game)
            games.append(
                SharedPairing(
                    game: game, control: pair.first.control, x: xRow, o: oRow,
                    nodes: [.x: x.node, .o: o.node], start: layout.position))
        }
        return (games, full, false)
    }

    package func takeBackgroundTurn(now: Date, interval: Duration) async throws -> Bool {
        let (at, every) = (BackgroundTurn.milliseconds(now), interval.wholeMilliseconds)
        return nodes.withState { state in
            if let last = state.backgroundTurn, last > at - every { return false }
            state.backgroundTurn = at
            return true
        }
    }
}
