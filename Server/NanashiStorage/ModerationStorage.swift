import Foundation

/// What moderators change in storage, and the log of it. Every change is stored in one
/// transaction with its line of the log, or not at all.
package protocol ModerationStorage: Sendable {
    /// Applies `change` to the player `entry.playerID` and appends `entry` to the log; returns
    /// the entry as stored (with its id). Closing an account also forgets every token of it and
    /// its password reset, if any. Marking or unmarking moves the player out of or into the
    /// standings.
    ///
    /// - Throws: `StorageError.nameTaken` if a rename's name is taken, ignoring case.
    func moderate(_ change: ModerationChange, entry: ModerationEntry) async throws -> ModerationEntry

    /// Sets a new password with a reset token: if `name`'s account is open and has a reset of
    /// this digest that has not expired, in one transaction the reset is used up, the password
    /// hash replaced, every session token forgotten and `token` stored; returns the player.
    /// `nil` (and nothing changed) otherwise.
    func usePasswordReset(
        name: String, digest: [UInt8], passwordHash: String, now: Date,
        token: (digest: [UInt8], expires: Date)
    ) async throws -> PlayerRow?

    /// The latest `limit` lines of the log, oldest first.
    func moderationLog(limit: Int) async throws -> [ModerationEntry]

    /// The lines of the log after line `id`, oldest first (what a running server has not seen yet).
    func moderationLog(after id: Int64) async throws -> [ModerationEntry]
}
