import Foundation
import Logging
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import PostgresNIO

/// What several servers ("nodes") on one PostgreSQL database share beyond the storage itself:
/// which nodes are alive (a heartbeat row each), which node hosts each game, the seek pool,
/// the `live` list, and the messages they send each other with `NOTIFY`.
extension PostgresStorage {
    /// The host of the games this server creates: its node, once it joined.
    package var host: Int64? {
        let node = node.load(ordering: .relaxed)
        return node == 0 ? nil : node
    }

    // MARK: Nodes

    /// Adds this server's `node` row and makes it the host of the games it creates.
    package func joinAsNode(now: Date) async throws -> Int64 {
        let seconds = now.timeIntervalSince1970
        guard
            let id = try await rows(
                "INSERT INTO node (started_at, seen_at) VALUES (\(seconds), \(seconds)) RETURNING id"
            ).first?.decode(Int64.self)
        else { throw StorageError.damaged("a new node got no id") }
        node.store(id, ordering: .relaxed)
        return id
    }

    /// Tells the other nodes this one is alive, and drops the seeks of nodes that are not and
    /// the stored messages for nodes that are not (dead, or gone). Runs on a connection of its
    /// own, not the pool's: however busy the pool, the lease is renewed. Gives up after `limit`
    /// on `clock` (`StorageTimedOut`), dropping that connection: a statement that
    /// hangs holds up no later heartbeat.
    package func heartbeat(
        node: Int64, now: Date, aliveAfter: Date, within limit: Duration = .seconds(10),
        clock: any ServerClock = SystemClock()
    ) async throws {
        let logger = logger
        try await heartbeatConnection.run(within: limit, on: clock) { connection in
            // Never back in time: a heartbeat given up on may still reach the row after a later one.
            try await connection.query(
                """
                UPDATE node SET seen_at = GREATEST(seen_at, \(now.timeIntervalSince1970)) WHERE id = \(node)
                """, logger: logger)
            try await connection.query(
                """
                DELETE FROM seek WHERE node IN (SELECT id FROM node WHERE seen_at < \(aliveAfter.timeIntervalSince1970))
                """, logger: logger)
            try await connection.query(
                """
                DELETE FROM relay_message
                WHERE node IS NOT NULL
                  AND node NOT IN (SELECT id FROM node WHERE seen_at >= \(aliveAfter.timeIntervalSince1970))
                """, logger: logger)
        }
    }

    /// Leaves the cluster in order: this node's games are hosted by nobody (the next node to
    /// look takes them), its seeks go, and so does its row.
    package func leave(node: Int64) async throws {
        try await transaction { connection in
            try await connection.query(
                "UPDATE game SET host = NULL WHERE host = \(node) AND result IS NULL", logger: logger)
            try await connection.query("DELETE FROM seek WHERE node = \(node)", logger: logger)
            try await connection.query("DELETE FROM relay_message WHERE node = \(node)", logger: logger)
            try await connection.query("DELETE FROM node WHERE id = \(node)", logger: logger)
        }
    }

    /// Makes `node` the host of the unfinished games (all, or those of `ids`) whose host is
    /// nobody or a node not seen since `aliveAfter`; returns their ids. Of several nodes that try
    /// at once, one gets each game: the others find it hosted by a live node when their update
    /// reaches its row.
    package func claimGames(node: Int64, aliveAfter: Date, ids: [Int64]? = nil) async throws -> [Int64] {
        let only = ids.map { " AND id IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        if let ids, ids.isEmpty { return [] }
        return try await rows(
            """
            UPDATE game SET host = \(node)
            WHERE result IS NULL\(unescaped: only)
              AND (host IS NULL OR host NOT IN (SELECT id FROM node WHERE seen_at >= \(aliveAfter.timeIntervalSince1970)))
            RETURNING id
            """
        ).map { try $0.decode(Int64.self) }
    }

    /// Lets go of the unfinished games of `ids` that `node` hosts (their host becomes nobody), for
    /// the next claim, here or on another node.
    package func releaseGames(ids: [Int64], node: Int64) async throws {
        guard !ids.isEmpty else { return }
        let only = ids.map(String.init).joined(separator: ",")
        _ = try await rows(
            """
            UPDATE game SET host = NULL
            WHERE host = \(node) AND result IS NULL AND id IN (\(unescaped: only))
            RETURNING id
            """)
    }

    /// A player's unfinished game, the side they play and its host, if that host is alive.
    package func unfinishedGame(of playerID: Int64, aliveAfter: Date) async throws -> (
        game: Int64, side: Side, host: Int64?
    )? {
        guard
            let (game, xID, host) = try await rows(
                """
                SELECT game.id, game.x_id, node.id FROM game
                LEFT JOIN node ON node.id = game.host AND node.seen_at >= \(aliveAfter.timeIntervalSince1970)
                WHERE game.result IS NULL AND (game.x_id = \(playerID) OR game.o_id = \(playerID))
                ORDER BY game.id DESC LIMIT 1
                """
            ).first?.decode((Int64, Int64, Int64?).self)
        else { return nil }
        return (game, xID == playerID ? .x : .o, host)
    }

    /// The live node hosting the unfinished game `id`, if any.
    package func host(ofGame id: Int64, aliveAfter: Date) async throws -> Int64? {
        try await rows(
            """
            SELECT node.id FROM game JOIN node ON node.id = game.host
            WHERE game.id = \(id) AND game.result IS NULL AND node.seen_at >= \(aliveAfter.timeIntervalSince1970)
            """
        ).first?.decode(Int64.self)
    }

    /// How game `id` ended, as stored: its outcome and each side's rating before and after it
    /// (the player's rating both times if it was not rated); `nil` while it is not over.
    package func storedEnd(ofGame id: Int64) async throws -> (
        outcome: Outcome, ratings: [Side: RatingChange]
    )? {
        guard
            let row = try await rows(
                """
                SELECT game.result, game.reason, x.rating, o.rating,
                       xc.rating_before, xc.rating_after, oc.rating_before, oc.rating_after
                FROM game
                JOIN player AS x ON x.id = game.x_id
                JOIN player AS o ON o.id = game.o_id
                LEFT JOIN rating_change AS xc ON xc.game_id = game.id AND xc.player_id = game.x_id
                LEFT JOIN rating_change AS oc ON oc.game_id = game.id AND oc.player_id = game.o_id
                WHERE game.id = \(id) AND game.result IS NOT NULL
                """
            ).first
        else { return nil }
        let (result, reason, xNow, oNow, xBefore, xAfter, oBefore, oAfter) = try row.decode(
            (String, String?, Double, Double, Double?, Double?, Double?, Double?).self)
        guard let outcome = Outcome(storedResult: result, reason: reason) else {
            throw StorageError.damaged("game \(id) has a result the server does not write")
        }
        func change(_ before: Double?, _ after: Double?, _ now: Double) -> RatingChange {
            RatingChange(before: rounded(before ?? now), after: rounded(after ?? now))
        }
        return (outcome, [.x: change(xBefore, xAfter, xNow), .o: change(oBefore, oAfter, oNow)])
    }

    /// A number greater than that of every login before it on any node.
    package func nextLoginTicket() async throws -> Int64 {
        guard let ticket = try await rows("SELECT nextval('login_ticket')").first?.decode(Int64.self) else {
            throw StorageError.damaged("the login ticket sequence gave nothing")
        }
        return ticket
    }

    // MARK: The seek pool

    /// Adds a seek to the shared pool. A seek the player made on another node is replaced: it
    /// was their older connection's, superseded by this one's.
    ///
    /// - Throws: `ProtocolError` `alreadySeeking` if the player seeks already (on any node),
    ///   `inGame` if they have a game not over.
    package func addSeek(_ seek: SharedSeek) async throws {
        let inserted = try await rows(
            """
            INSERT INTO seek (player_id, node, rating, colour_balance, initial, increment, since, layout)
            SELECT \(seek.playerID), \(seek.node), \(seek.rating), \(seek.colourBalance), \(seek.control.initial),
                   \(seek.control.increment), \(seek.since.timeIntervalSince1970), \(seek.layout.name)
            WHERE NOT EXISTS (SELECT 1 FROM game WHERE result IS NULL AND (x_id = \(seek.playerID) OR o_id = \(seek.playerID)))
            ON CONFLICT (player_id) DO UPDATE
                SET node = EXCLUDED.node, rating = EXCLUDED.rating, colour_balance = EXCLUDED.colour_balance,
                    initial = EXCLUDED.initial, increment = EXCLUDED.increment, since = EXCLUDED.since,
                    layout = EXCLUDED.layout
                WHERE seek.node <> EXCLUDED.node
            RETURNING player_id
            """)
        guard inserted.isEmpty else { return }
        if try await rows("SELECT 1 FROM seek WHERE player_id = \(seek.playerID)").isEmpty {
            throw ProtocolError(.inGame, "you have a game in progress")
        }
        throw ProtocolError(.alreadySeeking, "you are already seeking")
    }

    /// Takes a player's seek made on `node` out of the pool, if it is still there (not one they
    /// made since on another node); returns whether it was.
    @discardableResult
    package func removeSeek(playerID: Int64, node: Int64) async throws -> Bool {
        try await !rows("DELETE FROM seek WHERE player_id = \(playerID) AND node = \(node) RETURNING 1")
            .isEmpty
    }

    /// One pairing pass over the shared pool, in one transaction: locks at most `limit` seeks
    /// of live nodes, the oldest that no other node's pass holds (`FOR UPDATE SKIP LOCKED`),
    /// lets `pick` choose pairs among them, creates their games, hosted by `node`, and
    /// deletes their seeks, one statement each. Seeks locked by another pass are skipped, not waited for:
    /// a pass never blocks another, no seek is paired twice, and passes on several nodes at
    /// once take batches of their own.
    ///
    /// - Returns: the games created; whether the batch was full (more seeks may wait), and
    ///   whether seeks were skipped (locked by another pass), so that the pass may be tried again.
    package func pairSeeks(
        node: Int64, aliveAfter: Date, now: Date, limit: Int,
        pick: @Sendable ([SharedSeek]) -> [(first: SharedSeek, second: SharedSeek, firstIsX: Bool)]
    ) async throws -> (games: [SharedPairing], full: Bool, skipped: Bool) {
        let logger = logger
        return try await transaction { connection in
            // This node's oldest seeks, half a batch, then as many of other nodes': every pair
            // it makes has a seeker of its own, so its own seekers are never crowded out.
            let own = try await Self.lockSeeks(
                connection, of: node, own: true, aliveAfter: aliveAfter, limit: max(1, limit / 2), logger)
            let full = own.count >= max(1, limit / 2)
            let others =
                own.isEmpty
                ? []
                : try await Self.lockSeeks(
                    connection, of: node, own: false, aliveAfter: aliveAfter,
                    limit: max(1, limit - own.count),
                    logger)
            let seeks = (own + others).sorted { ($0.since, $0.playerID) < ($1.since, $1.playerID) }
            // Counted only when the batch is not full: whether other passes hold seeks.
            var skipped = false
            if !full {
                let all = try await connection.query(
                    """
                    SELECT COUNT(*) FROM seek JOIN node ON node.id = seek.node
                    JOIN player ON player.id = seek.player_id AND player.engine_help_at IS NULL
                    WHERE node.seen_at >= \(aliveAfter.timeIntervalSince1970)
                      AND NOT EXISTS (SELECT 1 FROM game WHERE result IS NULL
                                      AND (game.x_id = seek.player_id OR game.o_id = seek.player_id))
                    """, logger: logger
                ).collect().first?.decode(Int.self)
                skipped = (all ?? 0) > seeks.count
            }
            guard seeks.count >= 2 else { return ([], full, skipped) }
            let picked = pick(seeks)
            guard !picked.isEmpty else { return ([], full, skipped) }
            // The seekers' rows in one statement, their seeks deleted in one.
            var players: [Int64: PlayerRow] = [:]
            for row in try await connection.query(
                """
                SELECT \(unescaped: Self.playerColumns) FROM player
                WHERE id = ANY(\(picked.flatMap { [$0.first.playerID, $0.second.playerID] }))
                """, logger: logger
            ).collect() {
                let player = try Self.player(row)
                players[player.id!] = player
            }
            // Each statement reads what was committed when it began: a player marked after this
            // node's seeks were locked but before another node's were is seen marked only here.
            // Such a pair is left out and the pass tried again, so that its other seeker is paired.
            let pairs = picked.filter { pair in
                players[pair.first.playerID]?.engineHelpAt == nil
                    && players[pair.second.playerID]?.engineHelpAt == nil
            }
            skipped = skipped || pairs.count < picked.count
            guard !pairs.isEmpty else { return ([], full, skipped) }
            let seekers = pairs.flatMap { [$0.first.playerID, $0.second.playerID] }
            try await connection.query("DELETE FROM seek WHERE player_id = ANY(\(seekers))", logger: logger)
            // The games in one statement too (one round trip while the batch's rows are locked,
            // not one a game), each found again by its x, who plays one of them.
            let sides = pairs.map { $0.firstIsX ? ($0.first, $0.second) : ($0.second, $0.first) }
            let (xs, os) = (sides.map(\.0.playerID), sides.map(\.1.playerID))
            let initials = pairs.map { Int64($0.first.control.initial) }
            let increments = pairs.map { Int64($0.first.control.increment) }
            // The standard start is stored as NULL, as on one node.
            let starts = pairs.map { $0.first.layout.isStandard ? "" : $0.first.layout.fen }
            var games: [Int64: Int64] = [:]
            for row in try await connection.query(
                """
                INSERT INTO game (x_id, o_id, initial, increment, started_at, host, start_fen)
                SELECT pair.x, pair.o, pair.initial, pair.increment, \(now.timeIntervalSince1970), \(node), NULLIF(pair.start, '')
                FROM unnest(\(xs)::BIGINT[], \(os)::BIGINT[], \(initials)::BIGINT[], \(increments)::BIGINT[],
                            \(starts)::TEXT[])
                    WITH ORDINALITY AS pair (x, o, initial, increment, start, n)
                ORDER BY pair.n
                RETURNING id, x_id
                """, logger: logger
            ).collect() {
                let (game, x) = try row.decode((Int64, Int64).self)
                games[x] = game
            }
            return (
                try zip(pairs, sides).map { pair, side in
                    let (x, o) = side
                    guard let game = games[x.playerID] else {
                        throw StorageError.damaged("a new game got no id")
                    }
                    guard let xRow = players[x.playerID], let oRow = players[o.playerID] else {
                        throw StorageError.damaged("a seeker of game \(game) is missing")
                    }
                    return SharedPairing(
                        game: game, control: pair.first.control, x: xRow, o: oRow,
                        nodes: [.x: x.node, .o: o.node], start: pair.first.layout.position)
                }, full, skipped
            )
        }
    }

    /// Locks the oldest seeks of live nodes, no other pass holds and whose player has no game
    /// going and is not marked for engine help (out of rated pairing): `node`'s own, or the
    /// other nodes'.
    private static func lockSeeks(
        _ connection: PostgresConnection, of node: Int64, own: Bool, aliveAfter: Date, limit: Int,
        _ logger: Logger
    ) async throws -> [SharedSeek] {
        try await connection.query(
            """
            SELECT seek.player_id, seek.node, seek.rating, seek.colour_balance, seek.initial, seek.increment,
                   seek.since, seek.layout
            FROM seek JOIN node ON node.id = seek.node
            JOIN player ON player.id = seek.player_id AND player.engine_help_at IS NULL
            WHERE node.seen_at >= \(aliveAfter.timeIntervalSince1970) AND seek.node \(unescaped: own ? "=" : "<>") \(node)
              AND NOT EXISTS (SELECT 1 FROM game WHERE result IS NULL
                              AND (game.x_id = seek.player_id OR game.o_id = seek.player_id))
            ORDER BY seek.since, seek.player_id
            LIMIT \(limit)
            FOR UPDATE OF seek SKIP LOCKED
            """, logger: logger
        ).collect().map { row in
            let (player, node, rating, balance, initial, increment, since, layout) = try row.decode(
                (Int64, Int64, Double, Int, Int, Int, Double, String).self)
            return SharedSeek(
                playerID: player, node: node, rating: rating, colourBalance: balance,
                control: TimeControl(initial: initial, increment: increment),
                since: Date(timeIntervalSince1970: since), layout: Layout.named(layout) ?? .standard)
        }
    }

    // MARK: Watching

    /// The games in progress on live nodes, highest-rated first (by the mean of both players'
    /// ratings), at most `limit`.
    package func liveGames(limit: Int, aliveAfter: Date) async throws -> [LiveGame] {
        try await rows(
            """
            SELECT game.id, x.name, x.rating, o.name, o.rating, game.initial, game.increment,
                   (SELECT COUNT(*) FROM move WHERE move.game_id = game.id)
            FROM game JOIN node ON node.id = game.host AND node.seen_at >= \(aliveAfter.timeIntervalSince1970)
            JOIN player x ON x.id = game.x_id JOIN player o ON o.id = game.o_id
            WHERE game.result IS NULL
            ORDER BY (x.rating + o.rating) / 2 DESC, game.id LIMIT \(limit)
            """
        ).map { row in
            let (id, xName, xRating, oName, oRating, initial, increment, ply) = try row.decode(
                (Int64, String, Double, String, Double, Int, Int, Int).self)
            return LiveGame(
                game: id, x: GamePlayer(name: xName, rating: rounded(xRating)),
                o: GamePlayer(name: oName, rating: rounded(oRating)),
                control: TimeControl(initial: initial, increment: increment),
                ply: ply)
        }
    }

    // MARK: Messages between nodes

    /// Sends notifications in one statement, in order: `(channel, payload)`.
    package func notify(_ notifications: [(channel: String, payload: String)]) async throws {
        guard !notifications.isEmpty else { return }
        let statement = Notify(channels: notifications.map(\.channel), payloads: notifications.map(\.payload))
        let (client, logger) = (client, logger)
        try await withDeadline(Self.answerLimit) {
            for try await _ in try await client.execute(statement, logger: logger) {}
        }
    }

    /// Notifications sent in one statement, prepared once a connection.
    private struct Notify: PostgresPreparedStatement {
        package static let name = "nanashi_notify"
        package static let sql = "SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS t(c, p)"
        package typealias Row = Void
        package var channels: [String]
        package var payloads: [String]

        package func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(channels)
            bindings.append(payloads)
            return bindings
        }

        package func decodeRow(_ row: PostgresRow) throws {}
    }

    /// Keeps messages too long for a notification until their node (`nil`: any) reads them, or
    /// is found dead, all in one statement; returns their ids, in the order given.
    package func storeRelayMessages(_ messages: [(body: String, node: Int64?)]) async throws -> [Int64] {
        guard !messages.isEmpty else { return [] }
        let bodies = messages.map(\.body)
        // No node is -1: an array of optional numbers is not bound.
        let nodes = messages.map { $0.node ?? -1 }
        // Each row takes the next identity value as the rows are inserted, in the order of the
        // list: the ids, sorted, are the messages' in that order.
        let ids = try await rows(
            """
            INSERT INTO relay_message (body, node)
            SELECT body, NULLIF(node, -1)
            FROM unnest(\(bodies)::text[], \(nodes)::bigint[]) WITH ORDINALITY AS t(body, node, position)
            ORDER BY position
            RETURNING id
            """
        ).map { try $0.decode(Int64.self) }.sorted()
        guard ids.count == messages.count else { throw StorageError.damaged("relayed messages got no ids") }
        return ids
    }

    /// Reads a stored message once: it is gone after.
    package func takeRelayMessage(id: Int64) async throws -> String? {
        try await rows("DELETE FROM relay_message WHERE id = \(id) RETURNING body").first?.decode(String.self)
    }
}

/// A seek in the pool that the nodes share.
package struct SharedSeek: Sendable {
    package var playerID: Int64
    /// The node the player is connected to.
    package var node: Int64
    package var rating: Double
    /// Games as x minus games as o.
    package var colourBalance: Int
    package var control: TimeControl
    package var since: Date
    /// Where the game is to start: a seek pairs only with one of the same layout.
    package var layout: Layout

    package init(
        playerID: Int64, node: Int64, rating: Double, colourBalance: Int, control: TimeControl, since: Date,
        layout: Layout = .standard
    ) {
        self.layout = layout
        self.playerID = playerID
        self.node = node
        self.rating = rating
        self.colourBalance = colourBalance
        self.control = control
        self.since = since
    }
}

/// A game a pairing pass created: its players as stored, and the node each is connected to.
package struct SharedPairing: Sendable {
    package var game: Int64
    package var control: TimeControl
    package var x: PlayerRow
    package var o: PlayerRow
    package var nodes: [Side: Int64]
    /// The position the game starts from.
    package var start: Position

    package init(
        game: Int64, control: TimeControl, x: PlayerRow, o: PlayerRow, nodes: [Side: Int64],
        start: Position = .start
    ) {
        self.start = start
        self.game = game
        self.control = control
        self.x = x
        self.o = o
        self.nodes = nodes
    }
}
