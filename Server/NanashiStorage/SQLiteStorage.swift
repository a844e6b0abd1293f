import Foundation
import GRDB
import GRDBSQLite
import NIOPosix
import NanashiCore
import NanashiProtocol
import NanashiRuntime

/// The server's storage in one SQLite file (the embedded default): players, token digests, games
/// with their moves, rating history.
///
/// WAL mode through a `DatabasePool`; every query is parameterised. GRDB's calls block, so each
/// method runs its work on threads of its own (`writing`, `reading`): a slow write never holds
/// up the threads that serve sockets and clocks, nor the reads.
package final class SQLiteStorage: Storage {
    /// Internal rather than private so that `SQLiteStorage+Seeding.swift` can write in bulk.
    package let pool: DatabasePool
    /// Where `writing` does its work (SQLite in WAL mode has one writer at a time, which GRDB's
    /// pool enforces; a write may wait for the lock up to the busy timeout).
    private let threads = WorkerThreads(count: 4, name: "nanashi.storage")
    /// Where `reading` does its work: apart, so that reads never queue behind writes waiting for
    /// the write lock (WAL lets readers go on while another connection, or process, writes).
    private let readers = WorkerThreads(count: 4, name: "nanashi.storage.read")
    /// The moves of every game, stored a batch at a time.
    private let moves: GroupCommit<MoveRow>

    /// Runs `work` in a write transaction on the storage threads and waits for it without
    /// blocking the caller's thread.
    package func writing<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await threads.run { try self.pool.write(work) }
    }

    /// Runs `work` on the storage threads outside a transaction (a lone statement is one of its own).
    func writingOneStatement<T: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        try await threads.run { try self.pool.writeWithoutTransaction(work) }
    }

    /// Runs `work`, which only reads, on the reading threads.
    package func reading<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await readers.run { try self.pool.read(work) }
    }

    package func close() async {}

    package var sharedLoginGuesses: (any SharedLoginGuesses)? { nil }

    deinit {
        threads.stop()
        readers.stop()
    }

    /// Opens (creating if needed) the database file and brings its schema up to date. A write
    /// waits up to `busyTimeout` for another's lock before it fails; moves are stored in batches
    /// that each wait `moveCommitDelay` for more (`GroupCommit`).
    package init(path: String, busyTimeout: Duration = .seconds(5), moveCommitDelay: Duration = .zero) throws
    {
        var configuration = Configuration()
        // Another process (the operator's `nanashi leaderboard --db`, a server shutting down)
        // may hold a lock for a moment: wait for it rather than fail.
        configuration.busyMode = .timeout(busyTimeout.inSeconds)
        configuration.prepareDatabase { db in
            // WAL with NORMAL sync survives a killed process; only a power cut may lose the
            // last commits.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in try db.execute(sql: Self.writerSettings) }
        self.pool = pool
        // A batch's games resume on one event loop, which one closure wakes once, rather than
        // each waking a loop of its own from this thread.
        moves = GroupCommit(
            on: threads, delay: moveCommitDelay,
            answer: { MultiThreadedEventLoopGroup.singleton.next().execute($0) },
            write: { batch in try Self.insert(batch, into: pool) })
        let known = Set(Self.migrator.migrations)
        let applied = try pool.read { db in try Self.migrator.appliedIdentifiers(db) }
        if !applied.isSubset(of: known) {
            throw StorageError.newerSchema(database: applied.count, node: known.count)
        }
        try Self.migrator.migrate(pool)
    }

    /// The writing connection's own settings. The moves of thousands of games land on as many
    /// pages of the `move` table: a page cache that holds them all spares reading them back for
    /// each batch, and checkpoints 8,192 pages apart (32 MiB of WAL rather than SQLite's 4 MiB)
    /// copy each page to the database once for many moves rather than once for about one.
    /// Durability is unchanged: a commit is in the WAL before it returns, as before.
    package static let writerSettings = "PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 8192"

    /// The schema version this build writes: the number of migrations it knows.
    package static var schemaVersion: Int { migrator.migrations.count }

    /// Named, append-only migrations: never edit one that has shipped, add the next.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 players, tokens, games, moves, rating changes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE player (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        name TEXT NOT NULL,
                        name_key TEXT NOT NULL UNIQUE,
                        password_hash TEXT NOT NULL,
                        rating REAL NOT NULL,
                        rd REAL NOT NULL,
                        volatility REAL NOT NULL,
                        games INTEGER NOT NULL DEFAULT 0,
                        wins INTEGER NOT NULL DEFAULT 0,
                        losses INTEGER NOT NULL DEFAULT 0,
                        draws INTEGER NOT NULL DEFAULT 0,
                        rated_at REAL,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX player_standing ON player (rating DESC, name_key) WHERE games > 0;
                    CREATE TABLE token (
                        digest BLOB PRIMARY KEY,
                        player_id INTEGER NOT NULL REFERENCES player(id) ON DELETE CASCADE,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL
                    );
                    CREATE INDEX token_player ON token (player_id);
                    CREATE TABLE game (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        x_id INTEGER NOT NULL REFERENCES player(id),
                        o_id INTEGER NOT NULL REFERENCES player(id),
                        initial INTEGER NOT NULL,
                        increment INTEGER NOT NULL,
                        started_at REAL NOT NULL,
                        ended_at REAL,
                        result TEXT CHECK (result IN ('x', 'o', 'draw')),
                        reason TEXT
                    );
                    CREATE INDEX game_x ON game (x_id);
                    CREATE INDEX game_o ON game (o_id);
                    CREATE INDEX game_unfinished ON game (id) WHERE result IS NULL;
                    CREATE TABLE move (
                        game_id INTEGER NOT NULL REFERENCES game(id),
                        ply INTEGER NOT NULL,
                        notation TEXT NOT NULL,
                        x_clock INTEGER NOT NULL,
                        o_clock INTEGER NOT NULL,
                        played_at REAL NOT NULL,
                        PRIMARY KEY (game_id, ply)
                    ) WITHOUT ROWID;
                    CREATE TABLE rating_change (
                        game_id INTEGER NOT NULL REFERENCES game(id),
                        player_id INTEGER NOT NULL REFERENCES player(id),
                        rating_before REAL NOT NULL,
                        rd_before REAL NOT NULL,
                        volatility_before REAL NOT NULL,
                        rating_after REAL NOT NULL,
                        rd_after REAL NOT NULL,
                        volatility_after REAL NOT NULL,
                        PRIMARY KEY (game_id, player_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX rating_change_player ON rating_change (player_id);
                    """)
        }
        // Counting the players above someone, or skipping to a deep leaderboard page, walked the
        // standing index entry by entry: O(players). Ranked players are counted per bucket of 8
        // rating points (8 divides a double exactly, so SQL and Swift agree on every bucket),
        // kept by triggers; a rank or a page now reads a few hundred buckets and one bucket of
        // players.
        migrator.registerMigration("v2 standing buckets: ranks and deep pages without a full count") { db in
            try db.execute(
                sql: """
                    CREATE TABLE standing_bucket (
                        bucket INTEGER PRIMARY KEY,
                        players INTEGER NOT NULL
                    );
                    INSERT INTO standing_bucket (bucket, players)
                        SELECT CAST(rating / 8 AS INTEGER) - (rating / 8 < CAST(rating / 8 AS INTEGER)), COUNT(*)
                        FROM player WHERE games > 0 GROUP BY 1;
                    CREATE TRIGGER standing_insert AFTER INSERT ON player WHEN NEW.games > 0 BEGIN
                        INSERT INTO standing_bucket (bucket, players)
                            VALUES (CAST(NEW.rating / 8 AS INTEGER) - (NEW.rating / 8 < CAST(NEW.rating / 8 AS INTEGER)), 1)
                            ON CONFLICT (bucket) DO UPDATE SET players = players + 1;
                    END;
                    CREATE TRIGGER standing_update AFTER UPDATE OF rating, games ON player BEGIN
                        UPDATE standing_bucket SET players = players - 1
                            WHERE OLD.games > 0
                            AND bucket = CAST(OLD.rating / 8 AS INTEGER) - (OLD.rating / 8 < CAST(OLD.rating / 8 AS INTEGER));
                        INSERT INTO standing_bucket (bucket, players)
                            SELECT CAST(NEW.rating / 8 AS INTEGER) - (NEW.rating / 8 < CAST(NEW.rating / 8 AS INTEGER)), 1
                            WHERE NEW.games > 0
                            ON CONFLICT (bucket) DO UPDATE SET players = players + 1;
                    END;
                    CREATE TRIGGER standing_delete AFTER DELETE ON player WHEN OLD.games > 0 BEGIN
                        UPDATE standing_bucket SET players = players - 1
                            WHERE bucket = CAST(OLD.rating / 8 AS INTEGER) - (OLD.rating / 8 < CAST(OLD.rating / 8 AS INTEGER));
                    END;
                    """)
        }
        // A profile read all of a player's games and sorted them to show the last ten: now each
        // side's latest finished games are read straight off an index, newest first.
        migrator.registerMigration("v3 finished games by player and end time") { db in
            try db.execute(
                sql: """
                    CREATE INDEX game_x_ended ON game (x_id, ended_at, id) WHERE result IS NOT NULL;
                    CREATE INDEX game_o_ended ON game (o_id, ended_at, id) WHERE result IS NOT NULL;
                    """)
        }
        registerEngineMigrations(&migrator)
        registerModerationMigrations(&migrator)
        // The clocks when the server stopped in order, after `stopped_ply` plies: the game
        // resumes with them, the time used before the stop charged and none after.
        migrator.registerMigration("v7 clocks at a planned stop") { db in
            try db.execute(
                sql: """
                    ALTER TABLE game ADD COLUMN stopped_ply INTEGER;
                    ALTER TABLE game ADD COLUMN stopped_x_clock INTEGER;
                    ALTER TABLE game ADD COLUMN stopped_o_clock INTEGER;
                    """)
        }
        registerStartMigrations(&migrator)
        registerClosedStandingMigration(&migrator)
        return migrator
    }

    // MARK: Players and tokens

    /// Adds a player with the initial rating and, in the same transaction, the digest of their
    /// first session token if given.
    ///
    /// - Throws: `StorageError.nameTaken` if the name is taken, ignoring case.
    package func createPlayer(
        name: String, passwordHash: String, now: Date, token: (digest: [UInt8], expires: Date)?
    ) async throws -> PlayerRow {
        let player = PlayerRow.new(name: name, passwordHash: passwordHash, now: now)
        do {
            return try await writing { db in
                var player = player
                try player.insert(db)
                if let token, let id = player.id {
                    try TokenRow(
                        digest: Data(token.digest), playerID: id, createdAt: now.timeIntervalSince1970,
                        expiresAt: token.expires.timeIntervalSince1970
                    ).insert(db)
                }
                return player
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.nameTaken
        }
    }

    /// The player with this name, ignoring case.
    package func player(named name: String) async throws -> PlayerRow? {
        try await reading { db in
            try PlayerRow.fetchOne(
                db, sql: "SELECT * FROM player WHERE name_key = ?", arguments: [name.lowercased()])
        }
    }

    /// The player with this id.
    package func player(id: Int64) async throws -> PlayerRow? {
        try await reading { db in try PlayerRow.fetchOne(db, key: id) }
    }

    /// Stores a token's digest for a player until it expires.
    package func addToken(digest: [UInt8], playerID: Int64, now: Date, expires: Date) async throws {
        let token = TokenRow(
            digest: Data(digest), playerID: playerID, createdAt: now.timeIntervalSince1970,
            expiresAt: expires.timeIntervalSince1970)
        try await writing { db in
            // Expired tokens are swept as new ones arrive, so the table does not grow forever.
            try db.execute(
                sql: "DELETE FROM token WHERE player_id = ? AND expires_at <= ?",
                arguments: [playerID, now.timeIntervalSince1970])
            try token.insert(db)
        }
    }

    /// The player a token digest belongs to, if the token exists and has not expired.
    package func player(tokenDigest digest: [UInt8], now: Date) async throws -> PlayerRow? {
        // Every reconnecting client asks: one statement, prepared once per database connection.
        try await reading { db in
            try PlayerRow.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT player.* FROM token JOIN player ON player.id = token.player_id
                        WHERE token.digest = ? AND token.expires_at > ?
                        """),
                arguments: [Data(digest), now.timeIntervalSince1970])
        }
    }

    /// Forgets a token: it stops working.
    package func removeToken(digest: [UInt8]) async throws {
        try await writing { db in
            try db.execute(sql: "DELETE FROM token WHERE digest = ?", arguments: [Data(digest)])
        }
    }

    package func removeTokens(playerID: Int64) async throws {
        try await writing { db in
            try db.execute(sql: "DELETE FROM token WHERE player_id = ?", arguments: [playerID])
        }
    }

    // MARK: Games

    /// A player about to seek, as stored now, in one read.
    package func seeker(id: Int64) async throws -> Seeker? {
        try await reading { db in
            guard
                let player = try PlayerRow.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM player WHERE id = ?"), arguments: [id])
            else { return nil }
            return Seeker(player: player, colourBalance: try Self.colourBalance(db, playerID: id))
        }
    }

    /// Games the player has played as x minus games as o, to give colours fairly.
    private static func colourBalance(_ db: Database, playerID: Int64) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql:
                    "SELECT (SELECT COUNT(*) FROM game WHERE x_id = ?) - (SELECT COUNT(*) FROM game WHERE o_id = ?)"
            ),
            arguments: [playerID, playerID]) ?? 0
    }

    /// Stores one accepted move with both clocks after it: with the other moves waiting meanwhile,
    /// in one transaction (`moves`).
    package func recordMove(gameID: Int64, ply: Int, move: Move, clocks: Clocks, now: Date) async throws {
        try await moves.store(
            MoveRow(
                gameID: gameID, ply: ply, notation: move.description, xClock: clocks.x, oClock: clocks.o,
                playedAt: now.timeIntervalSince1970))
    }

    /// Stores moves in one transaction through one prepared statement: the hottest write. Its
    /// `BEGIN` and `COMMIT` are prepared once as well, where `write` would parse both again for
    /// each batch.
    private static func insert(_ moves: [MoveRow], into pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
            do {
                let statement = try db.cachedStatement(
                    sql: """
                        INSERT INTO move (game_id, ply, notation, x_clock, o_clock, played_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """)
                for move in moves { try Self.insert(move, with: statement, in: db) }
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            } catch {
                // Whatever failed, nothing of the batch stays (`GroupCommit` then stores its
                // moves one at a time).
                try? db.rollback()
                throw error
            }
        }
    }

    /// Binds one move to the prepared `INSERT` and runs it, through SQLite's own calls: GRDB's
    /// arguments would box the six values and copy them twice, for each move of each batch.
    private static func insert(_ move: MoveRow, with statement: Statement, in db: Database) throws {
        let handle = statement.sqliteStatement
        // Every parameter is bound again for the next move, and the text was copied: a reset
        // is all the statement needs.
        defer { sqlite3_reset(handle) }
        sqlite3_bind_int64(handle, 1, move.gameID)
        sqlite3_bind_int64(handle, 2, Int64(move.ply))
        move.notation.withCString { text in _ = sqlite3_bind_text(handle, 3, text, -1, Self.transient) }
        sqlite3_bind_int64(handle, 4, move.xClock)
        sqlite3_bind_int64(handle, 5, move.oClock)
        sqlite3_bind_double(handle, 6, move.playedAt)
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)),
                message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// SQLite copies the text it is given before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Ends a game and, if it is `rated`, rates both players in one transaction: the result,
    /// both new ratings and both rating-history rows are stored together or not at all. An
    /// unrated game changes neither player's rating nor record; it returns `nil`.
    ///
    /// - Parameter rate: given both players as stored, returns their new ratings (x, o).
    /// - Throws: `StorageError.noSuchGame` if the game is unknown or already over.
    package func finishGame(
        id: Int64, outcome: Outcome, rated: Bool, now: Date,
        rate: @escaping @Sendable (PlayerRow, PlayerRow) -> (Rating, Rating)
    ) async throws -> RatedResult? {
        try await writing { db in
            guard var game = try GameRow.fetchOne(db, key: id), game.result == nil,
                var x = try PlayerRow.fetchOne(db, key: game.xID),
                var o = try PlayerRow.fetchOne(db, key: game.oID)
            else { throw StorageError.noSuchGame }
            game.result = outcome.storedResult
            game.reason = outcome.reason.rawValue
            game.endedAt = now.timeIntervalSince1970
            try game.update(db)
            guard rated else { return nil }

            let (xAfter, oAfter) = rate(x, o)
            let rated = RatedResult(x: (x.glicko, xAfter), o: (o.glicko, oAfter))
            for (side, after) in [(Side.x, xAfter), (Side.o, oAfter)] {
                var player = side == .x ? x : o
                try RatingChangeRow(gameID: id, player: player, after: after).insert(db)
                player.record(outcome, as: side, after: after, now: now)
                try player.update(db)
                if side == .x { x = player } else { o = player }
            }
            return rated
        }
    }

    /// Every game not yet over, with its players and moves in order.
    package func unfinishedGames() async throws -> [UnfinishedGame] {
        try await reading { db in
            let games = try GameRow.fetchAll(
                db, sql: "SELECT * FROM game WHERE result IS NULL ORDER BY id")
            return try games.compactMap { game in
                guard let x = try PlayerRow.fetchOne(db, key: game.xID),
                    let o = try PlayerRow.fetchOne(db, key: game.oID)
                else { return nil }
                let moves = try MoveRow.fetchAll(
                    db, sql: "SELECT * FROM move WHERE game_id = ? ORDER BY ply", arguments: [game.id])
                return UnfinishedGame(game: game, x: x, o: o, moves: moves)
            }
        }
    }

    // MARK: Standings

    /// A page of the leaderboard: players with at least one rated game, best first.
    package func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
        try await reading { db in try Self.leaderboard(db, limit: limit, offset: offset) }
    }

    /// A player's profile with their `recent` latest games, or `nil` if there is no such player.
    package func profile(name: String, recent: Int) async throws -> Profile? {
        try await reading { db in try Self.profile(db, name: name, recent: recent) }
    }

    /// Reads a leaderboard page from a database file without changing it (the operator's view).
    package static func leaderboard(databaseAt path: String, limit: Int, offset: Int) throws -> Leaderboard {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        return try queue.read { db in try leaderboard(db, limit: limit, offset: offset) }
    }

    private static func leaderboard(_ db: Database, limit: Int, offset: Int) throws -> Leaderboard {
        let total: Int
        let players: [PlayerRow]
        if try db.tableExists("standing_bucket") {
            total =
                try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT COALESCE(SUM(players), 0) FROM standing_bucket"))
                ?? 0
            // Skip whole buckets above the page, then only the players of its first bucket.
            // Buckets are walked from the nearer end, so a deep page reads as few as a top one.
            var first: Int64?
            var above = 0
            if offset < total {
                let fromTop = offset < total / 2
                let buckets = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: fromTop
                            ? "SELECT bucket, players FROM standing_bucket WHERE players > 0 ORDER BY bucket DESC"
                            : "SELECT bucket, players FROM standing_bucket WHERE players > 0 ORDER BY bucket")
                )
                var passed = 0
                while let row = try buckets.next() {
                    let players: Int = row[1]
                    let start = fromTop ? passed : total - passed - players
                    if start <= offset && offset < start + players {
                        first = row[0]
                        above = start
                        break
                    }
                    passed += players
                }
            }
            if let first {
                players = try PlayerRow.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT * FROM player WHERE games > 0 AND \(try unmarkedOpen(db)) AND rating < ?
                            ORDER BY rating DESC, name_key LIMIT ? OFFSET ?
                            """),
                    arguments: [Double(first + 1) * StandingBucket.width, limit, offset - above])
            } else {
                players = []
            }
        } else {
            // A database file from before the buckets, read-only (the operator's view).
            total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player WHERE games > 0") ?? 0
            players = try PlayerRow.fetchAll(
                db,
                sql: "SELECT * FROM player WHERE games > 0 ORDER BY rating DESC, name_key LIMIT ? OFFSET ?",
                arguments: [limit, offset])
        }
        let entries = players.enumerated().map { index, player in
            player.leaderboardEntry(rank: offset + index + 1)
        }
        return Leaderboard(total: total, entries: entries)
    }

    /// The condition of players neither marked for engine help nor closed; true in a file from
    /// before the moderation, read-only (the operator's view).
    private static func unmarkedOpen(_ db: Database) throws -> String {
        try db.columns(in: "player").contains { $0.name == "engine_help_at" }
            ? "engine_help_at IS NULL AND closed_at IS NULL" : "1"
    }

    private static func profile(_ db: Database, name: String, recent: Int) throws -> Profile? {
        guard let player = try player(db, named: name), let id = player.id else { return nil }
        var rank: Int?
        if player.isRanked {
            // Everyone in higher buckets, then those ahead within the player's own bucket.
            let bucket = StandingBucket.of(player.rating)
            let aboveBucket =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT COALESCE(SUM(players), 0) FROM standing_bucket WHERE bucket > ?"),
                    arguments: [bucket]) ?? 0
            let aheadInBucket =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT COUNT(*) FROM player
                            WHERE games > 0 AND engine_help_at IS NULL AND closed_at IS NULL
                            AND rating >= ? AND rating < ?
                            AND (rating > ? OR (rating = ? AND name_key < ?))
                            """),
                    arguments: [
                        Double(bucket) * StandingBucket.width, Double(bucket + 1) * StandingBucket.width,
                        player.rating,
                        player.rating, player.nameKey,
                    ]) ?? 0
            rank = aboveBucket + aheadInBucket + 1
        }
        // Statements are prepared once per connection: parsing them cost as much as running them.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: recentGamesQuery), arguments: [id, recent, id, recent, id, recent])
        let games = rows.map { row -> RecentGame in
            let color: Side = (row["x_id"] as Int64) == id ? .x : .o
            let before: Double = row["rating_before"] ?? player.rating
            let after: Double = row["rating_after"] ?? player.rating
            return RecentGame(
                game: row["id"], opponent: color == .x ? row["o_name"] : row["x_name"], color: color,
                outcome: Outcome(storedResult: row["result"], reason: row["reason"])
                    ?? Outcome(winner: nil, reason: .resignation),
                ratingChange: rounded(after) - rounded(before))
        }
        return player.profile(
            rank: rank, recent: games, computer: try recentEngineGames(db, playerID: id, recent: recent))
    }
}

extension SQLiteStorage {
    /// The player with this name, ignoring case, inside a read or write.
    package static func player(_ db: Database, named name: String) throws -> PlayerRow? {
        try PlayerRow.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM player WHERE name_key = ?"), arguments: [name.lowercased()]
        )
    }

    /// A player's latest finished games, newest first: the latest `recent` as x and as o, each
    /// read backwards off its index, merged. Arguments: player, recent, player, recent, player,
    /// recent.
    package static let recentGamesQuery = """
        SELECT game.id, game.x_id, game.result, game.reason, x.name AS x_name, o.name AS o_name,
               change.rating_before, change.rating_after
        FROM (
            SELECT * FROM (
                SELECT id, ended_at FROM game WHERE x_id = ? AND result IS NOT NULL AND engine_level IS NULL
                ORDER BY ended_at DESC, id DESC LIMIT ?)
            UNION ALL
            SELECT * FROM (
                SELECT id, ended_at FROM game WHERE o_id = ? AND result IS NOT NULL AND engine_level IS NULL
                ORDER BY ended_at DESC, id DESC LIMIT ?)
        ) AS latest
        JOIN game ON game.id = latest.id
        JOIN player AS x ON x.id = game.x_id
        JOIN player AS o ON o.id = game.o_id
        LEFT JOIN rating_change AS change ON change.game_id = game.id AND change.player_id = ?
        ORDER BY latest.ended_at DESC, latest.id DESC
        LIMIT ?
        """

    /// The buckets that have ranked players, best first.
    package static func standingBuckets(_ db: Database) throws -> [(bucket: Int64, players: Int)] {
        try Row.fetchAll(
            db, sql: "SELECT bucket, players FROM standing_bucket WHERE players > 0 ORDER BY bucket DESC"
        ).map { ($0["bucket"], $0["players"]) }
    }
}
