import Logging
import NanashiRuntime
import NanashiStorage

/// How a server on SQLite learns of the accounts a moderator closed while it runs: every
/// `ServerSettings.moderationCheckInterval` it reads the lines of the moderators' log after the
/// last it saw (one indexed read that finds nothing almost always), and ends the sessions of
/// the accounts closed since, as a logout everywhere does. Their tokens are already gone, and a
/// closed account cannot log in again.
///
/// Polling, rather than checking the account as each session acts: a session that only plays
/// moves would read the database once a move for a change that comes once in months, while the
/// log costs one read every few seconds for the whole server. (With PostgreSQL, `nanashi admin`
/// tells the nodes itself, with the `loggedOut` message they already understand.)
struct ModerationWatch: Sendable {
    let storage: any Storage
    let lobby: Lobby
    let clock: any ServerClock
    let interval: Duration
    let logger: Logger

    /// Watches until cancelled, from the log's latest line now.
    func run() async {
        var last = (try? await storage.moderationLog(limit: 1).last?.id) ?? 0
        await clock.rounds(every: interval) {
            for entry in try await storage.moderationLog(after: last) {
                last = entry.id ?? last
                guard entry.action == ModerationChange.close.action else { continue }
                logger.info("account closed by a moderator", metadata: ["player": "\(entry.playerName)"])
                await lobby.closeSession(of: entry.playerID, token: nil)
            }
        } failed: { error in
            logger.warning("the moderators' log cannot be read: \(error)")
        }
    }
}
