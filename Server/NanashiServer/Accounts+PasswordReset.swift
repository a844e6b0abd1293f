import NanashiProtocol
import NanashiStorage

extension Accounts {
    /// Sets a new password with the one-time token a moderator gave (`nanashi admin
    /// reset-password`) and logs in. The attempt counts as a login does (`beginAttempt`): a
    /// wrong, used or expired token is a failed login for that name from that address.
    func resetPassword(name: String, token: String, password: String, from client: Client) async throws
        -> Session
    {
        guard password.count >= Self.minimumPasswordLength else {
            throw ProtocolError(
                .weakPassword, "a password has at least \(Self.minimumPasswordLength) characters")
        }
        let standing = try await beginAttempt(name: name, from: client)
        let refused = ProtocolError(.badCredentials, "wrong name, or unknown, used or expired reset token")
        guard let digest = SessionToken.digest(of: token) else { throw refused }
        let session = SessionToken.generate()
        let now = settings.clock.date
        let player: PlayerRow?
        do {
            let cost = settings.passwordCost
            guard
                let hash = try await hashing.run(
                    standing, whileWanted: client.isOpen,
                    {
                        PasswordHash.make(password: password, cost: cost)
                    })
            else { throw ProtocolError(.internalError, "the password could not be hashed") }
            player = try await storage.usePasswordReset(
                name: name, digest: digest, passwordHash: hash.description, now: now,
                token: (session.digest, now.addingTimeInterval(tokenLifetime)))
        } catch {
            await withdrawAttempt(name: name, from: client)
            throw error
        }
        guard let player else { throw refused }
        await attemptSucceeded(name: name, from: client)
        return Session(player: player, token: session.text, digest: session.digest)
    }
}
