import Foundation
import GRDB

/// Closed accounts, engine help, password resets and the moderators' log, in SQLite.
extension SQLiteStorage {
    /// Appends this file's migrations; called by `SQLiteStorage.migrator` after the others.
    ///
    /// A marked player leaves the standings: the triggers that keep `standing_bucket` count only
    /// unmarked players, and follow a mark as they follow a rating (and, from v9, a closed
    /// account as a mark).
    package static func registerModerationMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6 moderation: closed accounts, engine help, password resets, the log") {
            db in
            let bucket = { (row: String) in
                "CAST(\(row).rating / 8 AS INTEGER) - (\(row).rating / 8 < CAST(\(row).rating / 8 AS INTEGER))"
            }
            try db.execute(
                sql: """
                    ALTER TABLE player ADD COLUMN closed_at REAL;
                    ALTER TABLE player ADD COLUMN engine_help_at REAL;
                    DROP TRIGGER standing_insert;
                    DROP TRIGGER standing_update;
                    DROP TRIGGER standing_delete;
                    CREATE TRIGGER standing_insert AFTER INSERT ON player
                    WHEN NEW.games > 0 AND NEW.engine_help_at IS NULL BEGIN
                        INSERT INTO standing_bucket (bucket, players) VALUES (\(bucket("NEW")), 1)
                            ON CONFLICT (bucket) DO UPDATE SET players = players + 1;
                    END;
                    CREATE TRIGGER standing_update AFTER UPDATE OF rating, games, engine_help_at ON player BEGIN
                        UPDATE standing_bucket SET players = players - 1
                            WHERE OLD.games > 0 AND OLD.engine_help_at IS NULL AND bucket = \(bucket("OLD"));
                        INSERT INTO standing_bucket (bucket, players)
                            SELECT \(bucket("NEW")), 1 WHERE NEW.games > 0 AND NEW.engine_help_at IS NULL
                            ON CONFLICT (bucket) DO UPDATE SET players = players + 1;
                    END;
                    CREATE TRIGGER standing_delete AFTER DELETE ON player
                    WHEN OLD.games > 0 AND OLD.engine_help_at IS NULL BEGIN
                        UPDATE standing_bucket SET players = players - 1 WHERE bucket = \(bucket("OLD"));
                    END;
                    CREATE TABLE password_reset (
                        player_id INTEGER PRIMARY KEY REFERENCES player(id),
                        digest BLOB NOT NULL UNIQUE,
                        expires_at REAL NOT NULL,
                        created_at REAL NOT NULL
                    );
                    CREATE TABLE moderation (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        at REAL NOT NULL,
                        moderator TEXT NOT NULL,
                        action TEXT NOT NULL,
                        player_id INTEGER NOT NULL REFERENCES player(id),
                        player_name TEXT NOT NULL,
                        detail TEXT NOT NULL,
                        reason TEXT NOT NULL
                    );
                    CREATE TRIGGER moderation_no_update BEFORE UPDATE ON moderation BEGIN
                        SELECT RAISE(ABORT, 'the moderation log is append-only');
                    END;
                    CREATE TRIGGER moderation_no_delete BEFORE DELETE ON moderation BEGIN
                        SELECT RAISE(ABORT, 'the moderation log is append-only');
                    END;
                    """)
        }
    }

    /// Appends the migration that takes closed accounts off the standings as marked players
    /// are; called by `SQLiteStorage.migrator` after the others. The buckets are counted again,
    /// for accounts closed before it.
    package static func registerClosedStandingMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9 closed accounts off the standings") { db in
            let bucket = { (row: String) in
                "CAST(\(row).rating / 8 AS INTEGER) - (\(row).rating / 8 < CAST(\(row).rating / 8 AS INTEGER))"
            }
            let ranked = { (row: String) in
                "\(row).games > 0 AND \(row).engine_help_at IS NULL AND \(row).closed_at IS NULL"
            }
            try db.execute(
                sql: """
                    DROP TRIGGER standing_insert;
                    DROP TRIGGER standing_update;
                    DROP TRIGGER standing_delete;
                    CREATE TRIGGER standing_insert AFTER INSERT ON player WHEN \(ranked("NEW")) BEGIN
                        INSERT INTO standing_bucket (bucket, players) VALUES (\(bucket("NEW")), 1)
                            ON CONFLICT (bucket) DO UPDATE SET players = players + 1;
                    END;
                    CREATE TRIGGER standing_update AFTER UPDATE OF rating, games, engine_help_at, closed_at ON player
                    BEGIN
                        UPDATE standing_bucket SET players = players - 1
                            WHERE \(ranked("OLD")) AND bucket = \(bucket("OLD"));
                        INSERT INTO standing_bucket (bucket, players)
                            SELECT \(bucket("NEW")), 1 WHERE \(ranked("NEW"))
                            ON CONFLICT (bucket) DO UPDATE SET players = players + 1;
                    END;
                    CREATE TRIGGER standing_delete AFTER DELETE ON player WHEN \(ranked("OLD")) BEGIN
                        UPDATE standing_bucket SET players = players - 1 WHERE bucket = \(bucket("OLD"));
                    END;
                    DELETE FROM standing_bucket;
                    INSERT INTO standing_bucket (bucket, players)
                        SELECT \(bucket("player")), COUNT(*) FROM player WHERE \(ranked("player")) GROUP BY 1;
                    """)
        }
    }

    package func moderate(_ change: ModerationChange, entry: ModerationEntry) async throws -> ModerationEntry
    {
        do {
            return try await writing { db in
                let (id, at) = (entry.playerID, entry.at.timeIntervalSince1970)
                switch change {
                case .close:
                    try db.execute(sql: "UPDATE player SET closed_at = ? WHERE id = ?", arguments: [at, id])
                    try db.execute(sql: "DELETE FROM token WHERE player_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM password_reset WHERE player_id = ?", arguments: [id])
                case .reopen:
                    try db.execute(sql: "UPDATE player SET closed_at = NULL WHERE id = ?", arguments: [id])
                case .rename(let name):
                    try db.execute(
                        sql: "UPDATE player SET name = ?, name_key = ? WHERE id = ?",
                        arguments: [name, name.lowercased(), id])
                case .markEngineHelp:
                    try db.execute(
                        sql: "UPDATE player SET engine_help_at = ? WHERE id = ?", arguments: [at, id])
                case .unmarkEngineHelp:
                    try db.execute(
                        sql: "UPDATE player SET engine_help_at = NULL WHERE id = ?", arguments: [id])
                case .resetPassword(let digest, let expires):
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO password_reset (player_id, digest, expires_at, created_at)
                            VALUES (?, ?, ?, ?)
                            """,
                        arguments: [id, Data(digest), expires.timeIntervalSince1970, at])
                }
                try db.execute(
                    sql: """
                        INSERT INTO moderation (at, moderator, action, player_id, player_name, detail, reason)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        at, entry.moderator, entry.action, id, entry.playerName, entry.detail, entry.reason,
                    ])
                var stored = entry
                stored.id = db.lastInsertedRowID
                return stored
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.nameTaken
        }
    }

    package func usePasswordReset(
        name: String, digest: [UInt8], passwordHash: String, now: Date,
        token: (digest: [UInt8], expires: Date)
    ) async throws -> PlayerRow? {
        let seconds = now.timeIntervalSince1970
        return try await writing { db in
            guard
                var player = try PlayerRow.fetchOne(
                    db,
                    sql: """
                        SELECT player.* FROM password_reset JOIN player ON player.id = password_reset.player_id
                        WHERE player.name_key = ? AND password_reset.digest = ? AND password_reset.expires_at > ?
                            AND player.closed_at IS NULL
                        """,
                    arguments: [name.lowercased(), Data(digest), seconds]),
                let id = player.id
            else { return nil }
            try db.execute(sql: "DELETE FROM password_reset WHERE player_id = ?", arguments: [id])
            try db.execute(
                sql: "UPDATE player SET password_hash = ? WHERE id = ?", arguments: [passwordHash, id])
            try db.execute(sql: "DELETE FROM token WHERE player_id = ?", arguments: [id])
            try TokenRow(
                digest: Data(token.digest), playerID: id, createdAt: seconds,
                expiresAt: token.expires.timeIntervalSince1970
            ).insert(db)
            player.passwordHash = passwordHash
            return player
        }
    }

    package func moderationLog(limit: Int) async throws -> [ModerationEntry] {
        try await reading { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM (SELECT * FROM moderation ORDER BY id DESC LIMIT ?) ORDER BY id",
                arguments: [limit]
            ).map(Self.entry)
        }
    }

    package func moderationLog(after id: Int64) async throws -> [ModerationEntry] {
        try await reading { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM moderation WHERE id > ? ORDER BY id"), arguments: [id]
            ).map(Self.entry)
        }
    }

    private static func entry(_ row: Row) -> ModerationEntry {
        ModerationEntry(
            id: row["id"], at: Date(timeIntervalSince1970: row["at"]), moderator: row["moderator"],
            action: row["action"], playerID: row["player_id"], playerName: row["player_name"],
            detail: row["detail"], reason: row["reason"])
    }
}
