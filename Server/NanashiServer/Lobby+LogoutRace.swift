import NanashiRuntime
import NanashiStorage
import NanashiTransport

/// A logout heard while a login of the same player was between checking its token and
/// attaching (on this node, or on another whose `loggedOut` arrived meanwhile) closed nothing,
/// since that login had no connection yet: the login checks its token once more when it
/// attaches, and a token removed meanwhile gets `bye`.
extension Lobby {
    /// How long after a logout a login of the same player checks its token again: longer than
    /// any check of a token takes (a storage call has its own, shorter, deadline).
    static let logoutRaceWindow = Duration.seconds(60)

    /// Notes a logout of `player` heard now (forgetting those heard longer ago than the
    /// window, once many are kept).
    func heardLogout(of player: Int64) {
        let now = settings.clock.now
        if logoutsHeard.count >= 4096 {
            logoutsHeard = logoutsHeard.filter { now - $0.value < Self.logoutRaceWindow }
        }
        logoutsHeard[player] = now
    }

    /// Whether the connection that just attached on `token` was logged out meanwhile: then it
    /// got `bye`, was closed and detached. Reads storage only after a logout of the player was
    /// heard within the window; a storage error leaves the connection as it is.
    func revokedMeanwhile(_ player: Int64, token: [UInt8], outbox: Outbox) async -> Bool {
        guard let heard = logoutsHeard[player], settings.clock.now - heard < Self.logoutRaceWindow else {
            return false
        }
        do {
            guard try await storage.player(tokenDigest: token, now: settings.clock.date) == nil else {
                return false
            }
        } catch {
            return false
        }
        guard connections[player]?.outbox == outbox else { return true }
        outbox.send(.bye)
        outbox.close()
        await detach(player, outbox: outbox)
        return true
    }
}
