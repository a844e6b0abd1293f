import Foundation
import Logging
import NIOCore
import PostgresNIO

/// Closed accounts, engine help, password resets and the moderators' log, in PostgreSQL.
extension PostgresStorage {
    package func moderate(_ change: ModerationChange, entry: ModerationEntry) async throws -> ModerationEntry
    {
        let (id, at) = (entry.playerID, entry.at.timeIntervalSince1970)
        let logger = logger
        do {
            return try await transaction { connection in
                switch change {
                case .close:
                    try await Self.set(.closed, at, id: id, on: connection, logger: logger)
                    try await connection.query("DELETE FROM token WHERE player_id = \(id)", logger: logger)
                    try await connection.query(
                        "DELETE FROM password_reset WHERE player_id = \(id)", logger: logger)
                case .reopen:
                    try await Self.set(.closed, nil, id: id, on: connection, logger: logger)
                case .rename(let name):
                    try await connection.query(
                        "UPDATE player SET name = \(name), name_key = \(name.lowercased()) WHERE id = \(id)",
                        logger: logger)
                case .markEngineHelp, .unmarkEngineHelp:
                    try await Self.set(
                        .engineHelp, change == .markEngineHelp ? at : nil, id: id, on: connection,
                        logger: logger)
                case .resetPassword(let digest, let expires):
                    try await connection.query(
                        """
                        INSERT INTO password_reset (player_id, digest, expires_at, created_at)
                        VALUES (\(id), \(ByteBuffer(bytes: digest)), \(expires.timeIntervalSince1970), \(at))
                        ON CONFLICT (player_id) DO UPDATE
                        SET digest = EXCLUDED.digest, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
                        """, logger: logger)
                }
                let stored = try await connection.query(
                    """
                    INSERT INTO moderation (at, moderator, action, player_id, player_name, detail, reason)
                    VALUES (\(at), \(entry.moderator), \(entry.action), \(id), \(entry.playerName), \(entry.detail),
                            \(entry.reason))
                    RETURNING id
                    """, logger: logger
                ).collect().first?.decode(Int64.self)
                var logged = entry
                logged.id = stored
                return logged
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw StorageError.nameTaken
        }
    }

    /// What keeps a player off the standings, moderators' doing.
    private enum Standing: String {
        case closed = "closed_at"
        case engineHelp = "engine_help_at"
    }

    /// Sets when a player was closed or marked (`nil`: reopened, unmarked), moving them out of
    /// or into their standing bucket: the player's row is locked first, as `finishGame` locks
    /// it, so a game that ends meanwhile counts them once.
    private static func set(
        _ standing: Standing, _ value: Double?, id: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard
            var player = try await connection.query(
                "SELECT \(unescaped: playerColumns) FROM player WHERE id = \(id) FOR UPDATE", logger: logger
            ).collect().first.map(Self.player)
        else { return }
        let wasRanked = player.isRanked
        try await connection.query(
            "UPDATE player SET \(unescaped: standing.rawValue) = \(value) WHERE id = \(id)", logger: logger)
        switch standing {
        case .closed: player.closedAt = value
        case .engineHelp: player.engineHelpAt = value
        }
        guard player.isRanked != wasRanked else { return }
        let change = player.isRanked ? 1 : -1
        try await connection.query(
            """
            INSERT INTO standing_bucket (bucket, players) VALUES (\(StandingBucket.of(player.rating)), \(change))
            ON CONFLICT (bucket) DO UPDATE SET players = standing_bucket.players + \(change)
            """, logger: logger)
    }

    package func usePasswordReset(
        name: String, digest: [UInt8], passwordHash: String, now: Date,
        token: (digest: [UInt8], expires: Date)
    ) async throws -> PlayerRow? {
        guard !name.unicodeScalars.contains("\0") else { return nil }
        let (seconds, logger) = (now.timeIntervalSince1970, logger)
        return try await transaction { connection in
            guard
                let row = try await connection.query(
                    """
                    DELETE FROM password_reset USING player
                    WHERE password_reset.player_id = player.id AND player.name_key = \(name.lowercased())
                        AND password_reset.digest = \(ByteBuffer(bytes: digest))
                        AND password_reset.expires_at > \(seconds) AND player.closed_at IS NULL
                    RETURNING \(unescaped: Self.playerColumns("player."))
                    """, logger: logger
                ).collect().first
            else { return nil }
            var player = try Self.player(row)
            let id = player.id!
            try await connection.query(
                "UPDATE player SET password_hash = \(passwordHash) WHERE id = \(id)", logger: logger)
            try await connection.query("DELETE FROM token WHERE player_id = \(id)", logger: logger)
            try await connection.query(
                """
                INSERT INTO token (digest, player_id, created_at, expires_at)
                VALUES (\(ByteBuffer(bytes: token.digest)), \(id), \(seconds), \(token.expires.timeIntervalSince1970))
                """, logger: logger)
            player.passwordHash = passwordHash
            return player
        }
    }

    package func moderationLog(limit: Int) async throws -> [ModerationEntry] {
        try await rows(
            """
            SELECT * FROM (SELECT \(unescaped: Self.entryColumns) FROM moderation ORDER BY id DESC LIMIT \(limit)) AS latest
            ORDER BY id
            """
        ).map(Self.entry)
    }

    package func moderationLog(after id: Int64) async throws -> [ModerationEntry] {
        try await rows("SELECT \(unescaped: Self.entryColumns) FROM moderation WHERE id > \(id) ORDER BY id")
            .map(
                Self.entry)
    }

    private static let entryColumns = "id, at, moderator, action, player_id, player_name, detail, reason"

    private static func entry(_ row: PostgresRow) throws -> ModerationEntry {
        let (id, at, moderator, action, player, name, detail, reason) = try row.decode(
            (Int64, Double, String, String, Int64, String, String, String).self)
        return ModerationEntry(
            id: id, at: Date(timeIntervalSince1970: at), moderator: moderator, action: action,
            playerID: player,
            playerName: name, detail: detail, reason: reason)
    }
}
