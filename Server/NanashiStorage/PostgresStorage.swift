import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import PostgresNIO
import Synchronization

/// The server's storage in a PostgreSQL database that several servers share: the same players,
/// tokens, games and ratings as `SQLiteStorage`, through a pool of connections (postgres-nio).
///
/// Every change is one transaction. Finishing a game locks the game's row, then both players'
/// rows in the order of their ids, so that two games of one player that end at the same moment,
/// on two servers, are rated one after the other and neither update is lost.
package final class PostgresStorage: Storage {
    /// The pool of connections; internal, for the extensions in the files beside this one.
    package let client: PostgresClient
    private let running: Task<Void, Never>
    /// What postgres-nio logs its queries' errors to.
    package let logger: Logger
    /// How to open one more connection of its own (the nodes' `LISTEN`).
    package let configuration: PostgresConnection.Configuration
    /// This server's row in `node` once it joined (`joinAsNode`), else 0: the host of the games
    /// it creates.
    package let node = Atomic<Int64>(0)
    /// How many connections the pool holds at most.
    package static let poolSize = 20
    /// The connection of the node's heartbeat, outside the pool: a busy pool must not delay it
    /// past the lease, or the other nodes take this live node for dead.
    package let heartbeatConnection: DedicatedConnection
    /// The moves waiting to be stored, each batch by one statement.
    private let moves: StatementBatches<MoveRecord, Bool>

    private init(
        client: PostgresClient, configuration: PostgresConnection.Configuration, moveDelay: Duration,
        logger: Logger
    ) {
        self.client = client
        self.configuration = configuration
        self.logger = logger
        heartbeatConnection = DedicatedConnection(configuration: configuration, logger: logger)
        moves = StatementBatches(delay: moveDelay) { batch in
            try await withDeadline(Self.answerLimit) {
                try await StoreMoves.store(batch, client: client, logger: logger)
            }
        }
        running = Task { await client.run() }
    }

    /// Connects to the database, checks the login, brings the schema up to date, then opens
    /// the pool of connections the server works through. Each batch of moves waits `moveDelay`
    /// for more before it is stored (none: at once).
    ///
    /// - Throws: `PostgresOpenError` when the server cannot be reached or refuses the login;
    ///   `StorageError.newerSchema` when the database is at a later schema than this server's.
    package static func open(_ address: PostgresAddress, moveDelay: Duration = .zero, logger: Logger)
        async throws
        -> PostgresStorage
    {
        let tls: PostgresConnection.Configuration.TLS
        var clientTLS = PostgresClient.Configuration.TLS.disable
        if address.requiresTLS {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            tls = .require(try NIOSSLContext(configuration: configuration))
            clientTLS = .require(configuration)
        } else {
            tls = .disable
        }
        var configuration = PostgresConnection.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: configuration, id: 0, logger: logger)
        } catch {
            throw PostgresOpenError(error)
        }
        do {
            try await PostgresSchema.migrate(connection, logger: logger)
        } catch let error as StorageError {
            try? await connection.close()
            throw error
        } catch {
            try? await connection.close()
            throw PostgresOpenError(error)
        }
        try? await connection.close()

        var pool = PostgresClient.Configuration(
            host: address.host, port: address.port, username: address.user, password: address.password,
            database: address.database, tls: clientTLS)
        pool.options.maximumConnections = poolSize
        // The statements prepared by name (the moves, the notifications) are planned once a
        // connection, not again at each run; statements sent as text are planned each time anyway.
        pool.options.additionalStartupParameters = [("plan_cache_mode", "force_generic_plan")]
        return PostgresStorage(
            client: PostgresClient(configuration: pool, backgroundLogger: logger),
            configuration: configuration, moveDelay: moveDelay,
            logger: logger)
    }

    package func close() async {
        await heartbeatConnection.close()
        running.cancel()
        await running.value
    }

    package var sharedLoginGuesses: (any SharedLoginGuesses)? { self }

    /// Runs `work` in one transaction on a connection of the pool (internal, for the extensions
    /// beside this file): committed if it returns,
    /// rolled back if it throws (and its error rethrown as it was).
    package func transaction<T: Sendable>(
        _ work: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let value = try await work(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// How long a batch of moves or of messages to other nodes may go unanswered before it
    /// counts as failed: far longer than either takes, shorter than a player waits for a move.
    /// (A statement postgres-nio hands to a connection PostgreSQL has just closed is never
    /// answered; the next batch would wait behind it for good.)
    package static let answerLimit = Duration.seconds(20)

    /// The rows of one query outside a transaction.
    package func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await client.query(query, logger: logger).collect()
    }

    // MARK: Players and tokens

    package func createPlayer(
        name: String, passwordHash: String, now: Date, token: (digest: [UInt8], expires: Date)?
    ) async throws -> PlayerRow {
        var player = PlayerRow.new(name: name, passwordHash: passwordHash, now: now)
        let inserted = player
        do {
            player.id = try await transaction { connection in
                let id = try await connection.query(
                    """
                    INSERT INTO player (name, name_key, password_hash, rating, rd, volatility, created_at)
                    VALUES (\(inserted.name), \(inserted.nameKey), \(inserted.passwordHash), \(inserted.rating),
                            \(inserted.rd), \(inserted.volatility), \(inserted.createdAt))
                    RETURNING id
                    """, logger: logger
                ).collect().first?.decode(Int64.self)
                guard let id else { throw StorageError.damaged("a new player got no id") }
                if let token {
                    try await connection.query(
                        """
                        INSERT INTO token (digest, player_id, created_at, expires_at)
                        VALUES (\(ByteBuffer(bytes: token.digest)), \(id), \(now.timeIntervalSince1970),
                                \(token.expires.timeIntervalSince1970))
                        """, logger: logger)
                }
                return id
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw StorageError.nameTaken
        }
        return player
    }

    package func player(named name: String) async throws -> PlayerRow? {
        // No name holds a NUL, and PostgreSQL refuses one in text: asked for, it is nobody.
        guard !name.unicodeScalars.contains("\0") else { return nil }
        return try await rows(
            "SELECT \(unescaped: Self.playerColumns) FROM player WHERE name_key = \(name.lowercased())"
        )
        .first.map(Self.player)
    }

    package func player(id: Int64) async throws -> PlayerRow? {
        try await rows("SELECT \(unescaped: Self.playerColumns) FROM player WHERE id = \(id)").first.map(
            Self.player)
    }

    package func addToken(digest: [UInt8], playerID: Int64, now: Date, expires: Date) async throws {
        let seconds = now.timeIntervalSince1970
        try await transaction { connection in
            // Expired tokens are swept as new ones arrive, so the table does not grow forever.
            try await connection.query(
                "DELETE FROM token WHERE player_id = \(playerID) AND expires_at <= \(seconds)", logger: logger
            )
            try await connection.query(
                """
                INSERT INTO token (digest, player_id, created_at, expires_at)
                VALUES (\(ByteBuffer(bytes: digest)), \(playerID), \(seconds), \(expires.timeIntervalSince1970))
                """, logger: logger)
        }
    }

    package func player(tokenDigest digest: [UInt8], now: Date) async throws -> PlayerRow? {
        try await rows(
            """
            SELECT \(unescaped: Self.playerColumns("player.")) FROM token JOIN player ON player.id = token.player_id
            WHERE token.digest = \(ByteBuffer(bytes: digest)) AND token.expires_at > \(now.timeIntervalSince1970)
            """
        ).first.map(Self.player)
    }

    package func removeToken(digest: [UInt8]) async throws {
        try await client.query(
            "DELETE FROM token WHERE digest = \(ByteBuffer(bytes: digest))", logger: logger)
    }

    package func removeTokens(playerID: Int64) async throws {
        try await client.query("DELETE FROM token WHERE player_id = \(playerID)", logger: logger)
    }

    package func setRefusesChallenges(_ refuses: Bool, playerID: Int64) async throws {
        try await client.query(
            "UPDATE player SET refuses_challenges = \(refuses) WHERE id = \(playerID)", logger: logger)
    }

    // MARK: Games

    package func seeker(id: Int64) async throws -> Seeker? {
        guard
            let row = try await rows(
                """
                SELECT \(unescaped: Self.playerColumns),
                       (SELECT COUNT(*) FROM game WHERE x_id = \(id)) - (SELECT COUNT(*) FROM game WHERE o_id = \(id))
                FROM player WHERE id = \(id)
                """
            ).first
        else { return nil }
        // The player's columns, then the balance.
        return Seeker(
            player: try Self.player(row),
            colourBalance: try row.makeRandomAccess()[Self.playerColumnNames.count].decode(Int.self))
    }

    package func createGame(
        xID: Int64, oID: Int64, control: TimeControl, now: Date, casual: Bool, start: String?
    ) async throws -> Int64 {
        guard
            let id = try await rows(
                """
                INSERT INTO game (x_id, o_id, initial, increment, started_at, host, casual, start_fen)
                VALUES (\(xID), \(oID), \(control.initial), \(control.increment), \(now.timeIntervalSince1970),
                        \(host), \(casual), \(start))
                RETURNING id
                """
            ).first?.decode(Int64.self)
        else { throw StorageError.damaged("a new game got no id") }
        return id
    }

    /// Stores a move only while this server hosts the game: a node taken for dead whose games
    /// were taken over, but which still runs, stores no more moves of them. The moves stored
    /// meanwhile wait and go together, in one statement (`StoreMoves`).
    ///
    /// The same move at a ply already stored is stored again (with these clocks): an `INSERT`
    /// that committed but whose answer was lost (PostgreSQL stopped between the two) was refused
    /// to its player, who plays it again. Another move at that ply is refused.
    package func recordMove(gameID: Int64, ply: Int, move: Move, clocks: Clocks, now: Date) async throws {
        let record = MoveRecord(
            gameID: gameID, ply: Int64(ply), notation: move.description, clocks: clocks,
            playedAt: now.timeIntervalSince1970, host: host)
        guard try await moves.store(record) else { throw StorageError.noSuchGame }
    }

    /// Only while this server hosts the game, as `recordMove`.
    package func storeStopClocks(gameID: Int64, ply: Int, clocks: Clocks) async throws {
        try await client.query(
            """
            UPDATE game SET stopped_ply = \(Int64(ply)), stopped_x_clock = \(clocks.x), stopped_o_clock = \(clocks.o)
            WHERE id = \(gameID) AND result IS NULL AND host IS NOT DISTINCT FROM \(host)
            """, logger: logger)
    }

    /// Only while this server hosts the game, as `recordMove`.
    package func removeMoves(gameID: Int64, after ply: Int) async throws {
        let host = host
        try await transaction { connection in
            guard
                let (result, gameHost) = try await connection.query(
                    "SELECT result, host FROM game WHERE id = \(gameID) FOR UPDATE", logger: logger
                ).collect().first?.decode((String?, Int64?).self),
                result == nil, gameHost == host
            else { throw StorageError.noSuchGame }
            try await connection.query(
                "DELETE FROM move WHERE game_id = \(gameID) AND ply > \(Int64(ply))", logger: logger)
        }
    }

    package func finishGame(
        id: Int64, outcome: Outcome, rated: Bool, now: Date,
        rate: @escaping @Sendable (PlayerRow, PlayerRow) -> (Rating, Rating)
    ) async throws -> RatedResult? {
        let (seconds, host) = (now.timeIntervalSince1970, host)
        return try await transaction { connection in
            // The game's row first: a game ends once, however many servers try, and only by its
            // host's hand.
            guard
                let (xID, oID, result, gameHost) = try await connection.query(
                    "SELECT x_id, o_id, result, host FROM game WHERE id = \(id) FOR UPDATE", logger: logger
                ).collect().first?.decode((Int64, Int64, String?, Int64?).self),
                result == nil, gameHost == host
            else { throw StorageError.noSuchGame }
            try await connection.query(
                """
                UPDATE game SET result = \(outcome.storedResult), reason = \(outcome.reason.rawValue),
                                ended_at = \(seconds)
                WHERE id = \(id)
                """, logger: logger)
            guard rated else { return nil }
            // Then both players, in the order of their ids so that two transactions never wait
            // for each other in a circle: a later game of either waits here until this one commits.
            var players: [Int64: PlayerRow] = [:]
            for row in try await connection.query(
                """
                SELECT \(unescaped: Self.playerColumns) FROM player WHERE id IN (\(xID), \(oID)) ORDER BY id FOR UPDATE
                """, logger: logger
            ).collect() {
                let player = try Self.player(row)
                players[player.id!] = player
            }
            guard let x = players[xID], let o = players[oID] else { throw StorageError.noSuchGame }
            let (xAfter, oAfter) = rate(x, o)
            var buckets: [Int64: Int] = [:]
            for (side, before, after) in [(Side.x, x, xAfter), (Side.o, o, oAfter)] {
                var player = before
                player.record(outcome, as: side, after: after, now: now)
                let change = RatingChangeRow(gameID: id, player: before, after: after)
                try await connection.query(
                    """
                    INSERT INTO rating_change (game_id, player_id, rating_before, rd_before, volatility_before,
                                               rating_after, rd_after, volatility_after)
                    VALUES (\(id), \(change.playerID), \(change.ratingBefore), \(change.rdBefore),
                            \(change.volatilityBefore), \(change.ratingAfter), \(change.rdAfter),
                            \(change.volatilityAfter))
                    """, logger: logger)
                try await connection.query(
                    """
                    UPDATE player SET rating = \(player.rating), rd = \(player.rd), volatility = \(player.volatility),
                                      games = \(player.games), wins = \(player.wins), losses = \(player.losses),
                                      draws = \(player.draws), rated_at = \(player.ratedAt)
                    WHERE id = \(player.id!)
                    """, logger: logger)
                // A player marked as playing with engine help is in no bucket.
                if before.isRanked { buckets[StandingBucket.of(before.rating), default: 0] -= 1 }
                if player.isRanked { buckets[StandingBucket.of(player.rating), default: 0] += 1 }
            }
            // The buckets in one order too, for the same reason as the players.
            for (bucket, change) in buckets.sorted(by: { $0.key < $1.key }) where change != 0 {
                try await connection.query(
                    """
                    INSERT INTO standing_bucket (bucket, players) VALUES (\(bucket), \(change))
                    ON CONFLICT (bucket) DO UPDATE SET players = standing_bucket.players + \(change)
                    """, logger: logger)
            }
            return RatedResult(x: (x.glicko, xAfter), o: (o.glicko, oAfter))
        }
    }

    package func unfinishedGames() async throws -> [UnfinishedGame] {
        try await unfinishedGames(where: "result IS NULL")
    }

    /// The games not over with these ids, with their players and moves.
    package func unfinishedGames(ids: [Int64]) async throws -> [UnfinishedGame] {
        guard !ids.isEmpty else { return [] }
        return try await unfinishedGames(
            where: "result IS NULL AND id IN (\(ids.map(String.init).joined(separator: ",")))")
    }

    /// The games matching `condition` (SQL of this file's own, never a client's), oldest first.
    private func unfinishedGames(where condition: String) async throws -> [UnfinishedGame] {
        var games: [UnfinishedGame] = []
        for row in try await rows(
            """
            SELECT id, x_id, o_id, initial, increment, started_at, casual, stopped_ply, stopped_x_clock,
                   stopped_o_clock, start_fen
            FROM game WHERE \(unescaped: condition) ORDER BY id
            """)
        {
            let (id, xID, oID, initial, increment, started, casual, stoppedPly, stoppedX, stoppedO, start) =
                try row.decode(
                    (Int64, Int64, Int64, Int, Int, Double, Bool, Int?, Int64?, Int64?, String?).self)
            guard let x = try await player(id: xID), let o = try await player(id: oID) else { continue }
            let moves = try await rows(
                """
                SELECT ply, notation, x_clock, o_clock, played_at FROM move WHERE game_id = \(id) ORDER BY ply
                """
            ).map { row in
                let (ply, notation, xClock, oClock, playedAt) = try row.decode(
                    (Int, String, Int64, Int64, Double).self)
                return MoveRow(
                    gameID: id, ply: ply, notation: notation, xClock: xClock, oClock: oClock,
                    playedAt: playedAt)
            }
            let game = GameRow(
                id: id, xID: xID, oID: oID, initial: initial, increment: increment, startedAt: started,
                endedAt: nil, result: nil, reason: nil, casual: casual, stoppedPly: stoppedPly,
                stoppedXClock: stoppedX, stoppedOClock: stoppedO, startFEN: start)
            games.append(UnfinishedGame(game: game, x: x, o: o, moves: moves))
        }
        return games
    }

    // MARK: Rows

    /// The columns of `player`, in the order `player(_:)` reads them.
    package static func playerColumns(_ prefix: String = "") -> String {
        playerColumnNames.map { prefix + $0 }.joined(separator: ", ")
    }

    /// The names of `playerColumns`: a query's columns after them start at their count.
    private static let playerColumnNames = [
        "id", "name", "name_key", "password_hash", "rating", "rd", "volatility", "games", "wins", "losses",
        "draws", "rated_at", "created_at", "closed_at", "engine_help_at", "refuses_challenges",
    ]

    package static var playerColumns: String { playerColumns() }

    /// A player from a row that starts with `playerColumns`.
    package static func player(_ row: PostgresRow) throws -> PlayerRow {
        let columns = row.makeRandomAccess()
        return PlayerRow(
            id: try columns[0].decode(Int64.self), name: try columns[1].decode(String.self),
            nameKey: try columns[2].decode(String.self), passwordHash: try columns[3].decode(String.self),
            rating: try columns[4].decode(Double.self), rd: try columns[5].decode(Double.self),
            volatility: try columns[6].decode(Double.self), games: try columns[7].decode(Int.self),
            wins: try columns[8].decode(Int.self), losses: try columns[9].decode(Int.self),
            draws: try columns[10].decode(Int.self), ratedAt: try columns[11].decode(Double?.self),
            createdAt: try columns[12].decode(Double.self), closedAt: try columns[13].decode(Double?.self),
            engineHelpAt: try columns[14].decode(Double?.self),
            refusesChallenges: try columns[15].decode(Bool.self))
    }
}

/// PostgreSQL cannot be reached, or refuses the login: one line for the operator.
package struct PostgresOpenError: Error, CustomStringConvertible {
    package let description: String

    package init(_ error: any Error) {
        guard let error = error as? PSQLError else {
            description = "PostgreSQL cannot be used: \(error)"
            return
        }
        // postgres-nio's own description hides the details.
        if let message = error.serverInfo?[.message] {
            description = "PostgreSQL refused: \(message)"
        } else if let underlying = error.underlying {
            description = "PostgreSQL cannot be reached: \(underlying)"
        } else {
            description = "PostgreSQL cannot be reached: \(error.code)"
        }
    }
}
