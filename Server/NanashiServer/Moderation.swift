import Foundation
import Logging
import NanashiCluster
import NanashiStorage

/// What `nanashi admin` does to accounts, on the server's own database (no server needed): each
/// action checks its input, changes the account and appends a line to the moderators' log
/// (who, when, what, why) in one transaction, and answers one line for the operator. Bad input
/// (an unknown name, a missing reason, an account already in that state) is a
/// `ModerationError` and changes nothing.
package struct Moderation: Sendable {
    let storage: any Storage
    let moderator: String
    let now: @Sendable () -> Date

    /// How long a password reset token works.
    package static let resetLifetime: TimeInterval = 24 * 3600

    /// - Parameters:
    ///   - moderator: who acts, as the log names them (`--moderator`, else `$USER`).
    package init(storage: any Storage, moderator: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.storage = storage
        self.moderator = moderator
        self.now = now
    }

    /// Opens the database `address` names (`--db`), for `nanashi admin`: a SQLite file must
    /// exist already. Call `close()` when done.
    package static func open(_ address: String, moderator: String) async throws -> Moderation {
        let storage: any Storage
        switch try DatabaseAddress(parsing: address) {
        case .sqlite(let path):
            guard FileManager.default.fileExists(atPath: path) else {
                throw ModerationError("no database file at \(path)")
            }
            storage = try SQLiteStorage(path: path)
        case .postgres(let postgres):
            storage = try await PostgresStorage.open(
                postgres, logger: Logger(label: "nanashi.admin") { _ in SwiftLogNoOpLogHandler() })
        }
        return Moderation(storage: storage, moderator: moderator)
    }

    /// Lets go of the database.
    package func close() async { await storage.close() }

    /// Opens the database `address` names, runs `body` with the tool, and lets the database go
    /// whatever happens.
    package static func run<T>(
        on address: String, as moderator: String, _ body: (Moderation) async throws -> T
    )
        async throws -> T
    {
        let moderation = try await open(address, moderator: moderator)
        do {
            let value = try await body(moderation)
            await moderation.close()
            return value
        } catch {
            await moderation.close()
            throw error
        }
    }

    /// Closes an account: it cannot log in, it is off the leaderboard until reopened, its
    /// sessions end (every token is forgotten, and the running servers close its connections),
    /// and its name is never registered again.
    package func close(_ name: String, reason: String) async throws -> String {
        let player = try await account(name, reason: reason)
        guard player.closedAt == nil else { throw ModerationError("'\(player.name)' is already closed") }
        try await apply(.close, to: player, reason: reason)
        try await endSessionsOnEveryNode(of: player)
        return "closed '\(player.name)'"
    }

    /// Reopens a closed account: its password works again.
    package func reopen(_ name: String, reason: String) async throws -> String {
        let player = try await account(name, reason: reason)
        guard player.closedAt != nil else { throw ModerationError("'\(player.name)' is not closed") }
        try await apply(.reopen, to: player, reason: reason)
        return "reopened '\(player.name)'"
    }

    /// Renames an account; its games, ratings and tokens follow. The new name is checked as a
    /// registration's is.
    package func rename(_ name: String, to newName: String, reason: String) async throws -> String {
        let player = try await account(name, reason: reason)
        guard Accounts.isValidName(newName) else {
            throw ModerationError("'\(newName)' is not a name: 3 to 20 characters of A-Z, a-z, 0-9, _ and -")
        }
        guard newName != player.name else { throw ModerationError("'\(player.name)' already has that name") }
        if let other = try await storage.player(named: newName), other.id != player.id {
            throw ModerationError("the name '\(other.name)' is taken")
        }
        do {
            try await apply(.rename(to: newName), to: player, detail: "to \(newName)", reason: reason)
        } catch StorageError.nameTaken {
            throw ModerationError("the name '\(newName)' is taken")
        }
        return "renamed '\(player.name)' to '\(newName)'"
    }

    /// Gives an open account a one-time password reset token, which works once within 24 hours
    /// (`reset_password`, docs/PROTOCOL.md) and replaces any earlier one. Only its digest is stored.
    ///
    /// - Returns: the token, to hand to the player, and when it expires.
    package func resetPassword(_ name: String, reason: String) async throws -> PasswordReset {
        let player = try await account(name, reason: reason)
        guard player.closedAt == nil else {
            throw ModerationError("'\(player.name)' is closed: reopen it first")
        }
        let token = SessionToken.generate()
        let expires = now().addingTimeInterval(Self.resetLifetime)
        try await apply(
            .resetPassword(digest: token.digest, expires: expires), to: player,
            detail: "until \(Self.text(expires))", reason: reason)
        return PasswordReset(name: player.name, token: token.text, expires: expires)
    }

    /// A password reset token for a player.
    package struct PasswordReset: Sendable, CustomStringConvertible {
        package var name: String
        package var token: String
        package var expires: Date

        /// What `nanashi admin reset-password` prints: the token on a line of its own.
        package var description: String {
            """
            password reset token for '\(name)', good once until \(Moderation.text(expires)) \
            (reset_password, docs/PROTOCOL.md):
            \(token)
            """
        }
    }

    /// Marks a player as playing with engine help (`true`) or lifts the mark: a marked player is
    /// off the leaderboard, has no rank, and is refused rated games (a seek of theirs waiting is
    /// never paired, and the running servers withdraw it: `ModerationWatch`); their rated
    /// results stay (their opponents' ratings are untouched).
    package func markEngineHelp(_ name: String, _ marked: Bool, reason: String) async throws -> String {
        let player = try await account(name, reason: reason)
        guard (player.engineHelpAt != nil) != marked else {
            throw ModerationError("'\(player.name)' is \(marked ? "already" : "not") marked")
        }
        try await apply(marked ? .markEngineHelp : .unmarkEngineHelp, to: player, reason: reason)
        return "\(marked ? "marked" : "unmarked") '\(player.name)'"
    }

    /// The latest `limit` lines of the log, oldest first: `ID DATE MODERATOR ACTION PLAYER
    /// [DETAIL] -- REASON`.
    package func log(limit: Int) async throws -> [String] {
        guard limit > 0 else { throw ModerationError("--last is 1 or more") }
        return try await storage.moderationLog(limit: limit).map { entry in
            [
                "\(entry.id ?? 0)", Self.text(entry.at), entry.moderator, entry.action, entry.playerName,
                entry.detail, "-- \(entry.reason)",
            ].filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// A date as the log shows it: UTC, to the second.
    static func text(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// The player of a name a moderator gave, after checking the moderator and the reason.
    private func account(_ name: String, reason: String) async throws -> PlayerRow {
        guard !moderator.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ModerationError("who acts is unknown: give --moderator NAME (or set USER)")
        }
        guard !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ModerationError("give a --reason")
        }
        // The engine's players have names no person can have, and cannot be moderated.
        guard Accounts.isValidName(name), let player = try await storage.player(named: name) else {
            throw ModerationError("no player is called '\(name.prefix(40))'")
        }
        return player
    }

    private func apply(_ change: ModerationChange, to player: PlayerRow, detail: String = "", reason: String)
        async throws
    {
        _ = try await storage.moderate(
            change,
            entry: ModerationEntry(
                at: now(), moderator: moderator, action: change.action, playerID: player.id!,
                playerName: player.name, detail: detail, reason: reason))
    }

    /// With PostgreSQL, tells every running node that the player logged out everywhere (the
    /// message a node sends when a player does): each closes the player's connections. With
    /// SQLite the server finds out by itself (`ModerationWatch`).
    private func endSessionsOnEveryNode(of player: PlayerRow) async throws {
        guard let shared = storage as? PostgresStorage else { return }
        // Node 0 is no node's id: every node acts on it.
        let message = NodeMessage.loggedOut(player: player.id!, digest: nil, node: 0)
        try await shared.notify([(PostgresCluster.everyNode, "0 " + message.payload())])
    }
}

/// `nanashi admin` was given bad input; nothing changed.
package struct ModerationError: Error, Equatable, CustomStringConvertible {
    package let description: String

    init(_ description: String) { self.description = description }
}
