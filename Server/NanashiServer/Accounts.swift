import Dispatch
import Foundation
import NanashiProtocol
import Synchronization

/// Registration, login and sessions: checks names and passwords, hashes with scrypt off the
/// server's threads, issues and resolves tokens.
struct Accounts: Sendable {
    let storage: Storage
    let settings: ServerSettings
    let throttle: LoginThrottle

    /// A logged-in player and the token of their session.
    struct Session: Sendable {
        var player: PlayerRow
        var token: String
        var digest: [UInt8]
    }

    static let minimumPasswordLength = 8

    /// Whether a name is 3-20 characters of `A-Za-z0-9_-`.
    static func isValidName(_ name: String) -> Bool {
        (3...20).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
    }

    func register(name: String, password: String) async throws -> Session {
        guard Self.isValidName(name) else {
            throw ProtocolError(.badName, "a name is 3 to 20 characters of A-Z, a-z, 0-9, _ and -")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw ProtocolError(
                .weakPassword, "a password has at least \(Self.minimumPasswordLength) characters")
        }
        if try storage.player(named: name) != nil {
            throw ProtocolError(.nameTaken, "the name '\(name)' is taken")
        }
        let cost = settings.passwordCost
        guard let hash = await Self.offThread({ PasswordHash.make(password: password, cost: cost) }) else {
            throw ProtocolError(.internalError, "the password could not be hashed")
        }
        // The player and their first token are stored together: a failure leaves neither.
        let token = SessionToken.generate()
        let now = settings.wallClock()
        let player: PlayerRow
        do {
            player = try storage.createPlayer(
                name: name, passwordHash: hash.description, now: now,
                token: (token.digest, now.addingTimeInterval(tokenLifetime)))
        } catch StorageError.nameTaken {
            throw ProtocolError(.nameTaken, "the name '\(name)' is taken")
        }
        return Session(player: player, token: token.text, digest: token.digest)
    }

    func login(name: String, password: String) async throws -> Session {
        try await throttle.check(name)
        let player = try storage.player(named: name)
        // An unknown name costs a hash as well, so timing does not tell which names exist.
        let stored =
            player.flatMap { PasswordHash(stored: $0.passwordHash) } ?? Self.decoy(settings.passwordCost)
        let matches = await Self.offThread { stored.verify(password) }
        guard let player, matches else {
            await throttle.failed(name)
            throw ProtocolError(.badCredentials, "wrong name or password")
        }
        await throttle.succeeded(name)
        return try startSession(for: player)
    }

    /// The session of a token, if it is known and has not expired.
    func resume(token: String) throws -> Session {
        guard let digest = SessionToken.digest(of: token),
            let player = try storage.player(tokenDigest: digest, now: settings.wallClock())
        else { throw ProtocolError(.badCredentials, "unknown or expired token; log in again") }
        return Session(player: player, token: token, digest: digest)
    }

    func end(_ session: Session) throws {
        try storage.removeToken(digest: session.digest)
    }

    private func startSession(for player: PlayerRow) throws -> Session {
        let token = SessionToken.generate()
        let now = settings.wallClock()
        try storage.addToken(
            digest: token.digest, playerID: player.id!, now: now,
            expires: now.addingTimeInterval(tokenLifetime))
        return Session(player: player, token: token.text, digest: token.digest)
    }

    /// How long a new token works, in seconds.
    private var tokenLifetime: TimeInterval {
        let (seconds, attoseconds) = settings.tokenLifetime.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A hash no password matches, verified at the same cost as a real one.
    private static func decoy(_ cost: ScryptCost) -> PasswordHash {
        PasswordHash(
            cost: cost, salt: Secrets.randomBytes(PasswordHash.saltLength),
            key: Secrets.randomBytes(PasswordHash.keyLength))
    }

    /// Hashing takes hundreds of milliseconds and 128 MiB at OWASP's cost: it runs on a small
    /// queue of its own so it neither blocks the server's threads nor piles up memory.
    private static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        let lane = nextLane.add(1, ordering: .relaxed).newValue % lanes.count
        return await withCheckedContinuation { continuation in
            lanes[lane].async { continuation.resume(returning: work()) }
        }
    }

    /// Two serial queues, taken in turn: at most two hashes at once, and no thread waits idle.
    private static let lanes = [
        DispatchQueue(label: "nanashi.scrypt.1"), DispatchQueue(label: "nanashi.scrypt.2"),
    ]
    private static let nextLane = Atomic<Int>(0)
}
