import Foundation

/// What a moderator changes about one account (`nanashi admin`).
package enum ModerationChange: Sendable, Hashable {
    /// The account stops working: no login, no token, its name never registered again.
    case close
    /// A closed account works again (with its password; its old tokens are gone).
    case reopen
    /// The account takes a new name; its games follow it (they refer to the player, not the name).
    case rename(to: String)
    /// The player played with engine help: off the leaderboard and out of rated pairing.
    case markEngineHelp
    /// The mark is lifted.
    case unmarkEngineHelp
    /// A one-time password reset token (its SHA-256 digest) works until `expires`, replacing an
    /// earlier one.
    case resetPassword(digest: [UInt8], expires: Date)

    /// The name of the action in the log.
    package var action: String {
        switch self {
        case .close: "close"
        case .reopen: "reopen"
        case .rename: "rename"
        case .markEngineHelp: "mark"
        case .unmarkEngineHelp: "unmark"
        case .resetPassword: "reset-password"
        }
    }
}

/// One line of the moderators' log, which is append-only: who did what to which account, when
/// and why.
package struct ModerationEntry: Sendable, Hashable {
    /// Its place in the log (1, 2, ...); `nil` before it is stored.
    package var id: Int64?
    package var at: Date
    package var moderator: String
    /// `ModerationChange.action`.
    package var action: String
    package var playerID: Int64
    /// The account's name when the action was taken (before a rename).
    package var playerName: String
    /// What changed beyond the action itself (a rename's new name, a reset's expiry), or empty.
    package var detail: String
    package var reason: String

    package init(
        id: Int64? = nil, at: Date, moderator: String, action: String, playerID: Int64, playerName: String,
        detail: String = "", reason: String
    ) {
        self.id = id
        self.at = at
        self.moderator = moderator
        self.action = action
        self.playerID = playerID
        self.playerName = playerName
        self.detail = detail
        self.reason = reason
    }
}
