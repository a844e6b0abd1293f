import Logging
import NanashiRuntime
import NanashiStorage

/// How a running server learns what a moderator did with `nanashi admin` (on its database,
/// with no server involved): every `ServerSettings.moderationCheckInterval` it reads the lines
/// of the moderators' log after the last it saw (one indexed read that finds nothing almost
/// always), and
/// - ends the sessions of the accounts closed since, as a logout everywhere does (their tokens
///   are already gone, and a closed account cannot log in again);
/// - withdraws the seek of a player marked for engine help since, waiting on this node, and
///   tells them (`Lobby.marked`). Pairing reads the marks of a pair too, so a seek is never
///   paired once its player is marked, whether the watch has looked or not.
///
/// Polling, rather than checking the account as each session acts: a session that only plays
/// moves would read the database once a move for a change that comes once in months, while the
/// log costs one read every few seconds for the whole server. Every node on PostgreSQL watches
/// the log it shares (`nanashi admin` tells the nodes of a closed account itself as well).
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
                switch entry.action {
                case ModerationChange.close.action:
                    logger.info("account closed by a moderator", metadata: ["player": "\(entry.playerName)"])
                    await lobby.closeSession(of: entry.playerID, token: nil)
                case ModerationChange.markEngineHelp.action:
                    logger.info("player marked by a moderator", metadata: ["player": "\(entry.playerName)"])
                    await lobby.marked(entry.playerID)
                default:
                    continue
                }
            }
        } failed: { error in
            logger.warning("the moderators' log cannot be read: \(error)")
        }
    }
}
