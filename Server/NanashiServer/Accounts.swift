import Foundation
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage

/// Registration, login and sessions: checks names and passwords, hashes with scrypt off the
/// server's threads (through a bounded pool, and a token bucket per address), issues and
/// resolves tokens.
struct Accounts: Sendable {
    let storage: any Storage
    let settings: ServerSettings
    let throttle: LoginThrottle
    let hashing: HashingPool
    /// `login` and `register` requests per address.
    let logins: KeyedBuckets<String>
    let registrations: KeyedBuckets<String>
    /// Decoy hashes (for names that do not exist) over all addresses, under one key: past it, an
    /// unknown name waits as long as a hash takes instead, so unknown names cannot fill the
    /// hash queue however many addresses send them.
    let decoys: KeyedBuckets<Bool>

    init(storage: any Storage, settings: ServerSettings) {
        self.storage = storage
        self.settings = settings
        throttle = LoginThrottle(settings)
        hashing = HashingPool(concurrency: settings.concurrentHashes, queueLimit: settings.queuedHashes)
        logins = KeyedBuckets(settings.loginsPerMinute, per: .seconds(60), clock: settings.clock)
        registrations = KeyedBuckets(
            settings.registrationsPerHour, per: .seconds(3600), clock: settings.clock)
        decoys = KeyedBuckets(
            settings.decoyHashesPerSecond, per: .seconds(1), maximumKeys: 2, clock: settings.clock)
    }

    /// Who asks: the client's address, and whether its connection is still open (work for a
    /// client that has gone is dropped).
    struct Client: Sendable {
        var address: String
        var isOpen: @Sendable () -> Bool
    }

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

    func register(name: String, password: String, from client: Client) async throws -> Session {
        guard registrations.take(client.address) else {
            throw ProtocolError(
                .rateLimited,
                "too many registrations from your address (at most \(Int(registrations.capacity)) an hour)")
        }
        guard Self.isValidName(name) else {
            throw ProtocolError(.badName, "a name is 3 to 20 characters of A-Z, a-z, 0-9, _ and -")
        }
        guard password.count >= Self.minimumPasswordLength else {
            throw ProtocolError(
                .weakPassword, "a password has at least \(Self.minimumPasswordLength) characters")
        }
        if let existing = try await storage.player(named: name) {
            try Self.checkOpen(existing)
            throw ProtocolError(.nameTaken, "the name '\(name)' is taken")
        }
        let cost = settings.passwordCost
        guard
            let hash = try await hashing.run(
                whileWanted: client.isOpen, { PasswordHash.make(password: password, cost: cost) })
        else {
            throw ProtocolError(.internalError, "the password could not be hashed")
        }
        // The player and their first token are stored together: a failure leaves neither.
        let token = SessionToken.generate()
        let now = settings.clock.date
        let player: PlayerRow
        do {
            let expires = now.addingTimeInterval(tokenLifetime)
            player = try await storage.createPlayer(
                name: name, passwordHash: hash.description, now: now, token: (token.digest, expires))
        } catch StorageError.nameTaken {
            throw ProtocolError(.nameTaken, "the name '\(name)' is taken")
        }
        return Session(player: player, token: token.text, digest: token.digest)
    }

    func login(name: String, password: String, from client: Client) async throws -> Session {
        let standing = try await beginAttempt(name: name, from: client)
        let matches: Bool
        let player: PlayerRow?
        do {
            player = try await storage.player(named: name)
            if let stored = player.flatMap({ PasswordHash(stored: $0.passwordHash) }) {
                matches = try await hashing.run(standing, whileWanted: client.isOpen) {
                    stored.verify(password)
                }
            } else if decoys.take(true) {
                // An unknown name costs a hash as well, so timing does not tell which names exist.
                let decoy = Self.decoy(settings.passwordCost)
                matches = try await hashing.run(standing, whileWanted: client.isOpen) {
                    decoy.verify(password)
                }
            } else {
                // Real time, not the server's clock: it stands for a real hash's cost.
                try? await Task.sleep(for: hashing.typicalDuration)
                matches = false
            }
        } catch {
            await withdrawAttempt(name: name, from: client)
            throw error
        }
        guard let player, matches else {
            throw ProtocolError(.badCredentials, "wrong name or password")
        }
        await attemptSucceeded(name: name, from: client)
        try Self.checkOpen(player)
        return try await startSession(for: player)
    }

    /// Counts an attempt at a name's password (a login, a password reset) from a client before
    /// it is checked: the client's logins a minute, then the failed-login buckets of the name and
    /// the address (shared by the servers of one database). Returns the client's place in the
    /// hashing queue.
    ///
    /// - Throws: `rate_limited` past a limit, `bad_credentials` for a name no one can have;
    ///   nothing is counted then but the login.
    func beginAttempt(name: String, from client: Client) async throws -> HashingPool.Standing {
        guard logins.take(client.address) else {
            throw ProtocolError(
                .rateLimited, "too many logins from your address (at most \(Int(logins.capacity)) a minute)")
        }
        // Names are checked before they become keys of the throttle's tables.
        guard Self.isValidName(name) else {
            throw ProtocolError(.badCredentials, "wrong name or password")
        }
        // An address that has not been failing, nor sending logins by the dozen (this one is
        // at most its third in a while), goes before the others in the hashing queue.
        let quiet = logins.tokens(client.address) >= logins.capacity - 3
        let standing: HashingPool.Standing = quiet && throttle.isClean(client.address) ? .clean : .suspect
        try throttle.begin(name: name, address: client.address)
        // Where servers share a database, guesses at this name from this address count on all.
        if let shared = storage.sharedLoginGuesses {
            let taken: Bool
            do {
                taken = try await shared.takeGuess(
                    address: client.address, name: name, capacity: settings.failedLoginsBeforeThrottle,
                    refill: settings.failedLoginRefill, now: settings.clock.date)
            } catch {
                throttle.withdrawn(name: name, address: client.address)
                throw error
            }
            guard taken else {
                throttle.withdrawn(name: name, address: client.address)
                throw ProtocolError(.rateLimited, "too many failed logins for this name; try again later")
            }
            // And guesses from this address at any name: spraying a few passwords at many names
            // counts on all servers together, not on each.
            let addressTaken: Bool
            do {
                addressTaken = try await shared.takeGuess(
                    address: client.address, name: Self.anyName,
                    capacity: settings.failedLoginsPerAddressBeforeThrottle,
                    refill: settings.failedLoginRefill,
                    now: settings.clock.date)
            } catch {
                await withdrawAttempt(name: name, from: client, addressTaken: false)
                throw error
            }
            guard addressTaken else {
                await withdrawAttempt(name: name, from: client, addressTaken: false)
                throw ProtocolError(.rateLimited, "too many failed logins from your address; try again later")
            }
        }
        return standing
    }

    /// The key of an address's shared bucket of guesses at any name (no name is empty).
    static let anyName = ""

    /// The attempt begun was never checked (the server failed or was too busy): it counts for nothing.
    func withdrawAttempt(name: String, from client: Client, addressTaken: Bool = true) async {
        throttle.withdrawn(name: name, address: client.address)
        let shared = storage.sharedLoginGuesses
        try? await shared?.giveBackGuess(
            address: client.address, name: name, capacity: settings.failedLoginsBeforeThrottle)
        if addressTaken {
            try? await shared?.giveBackGuess(
                address: client.address, name: Self.anyName,
                capacity: settings.failedLoginsPerAddressBeforeThrottle)
        }
    }

    /// The attempt begun had the right secret: the name is clear again from this client, and
    /// the address has this attempt's guess back.
    func attemptSucceeded(name: String, from client: Client) async {
        throttle.succeeded(name: name, address: client.address)
        let shared = storage.sharedLoginGuesses
        try? await shared?.clearGuesses(address: client.address, name: name)
        try? await shared?.giveBackGuess(
            address: client.address, name: Self.anyName,
            capacity: settings.failedLoginsPerAddressBeforeThrottle)
    }

    /// Refuses a player whose account a moderator closed.
    static func checkOpen(_ player: PlayerRow) throws(ProtocolError) {
        guard player.closedAt == nil else {
            throw ProtocolError(.accountClosed, "the account '\(player.name)' is closed")
        }
    }

    /// The session of a token, if it is known and has not expired.
    func resume(token: String) async throws -> Session {
        let now = settings.clock.date
        guard let digest = SessionToken.digest(of: token),
            let player = try await storage.player(tokenDigest: digest, now: now)
        else { throw ProtocolError(.badCredentials, "unknown or expired token; log in again") }
        try Self.checkOpen(player)
        return Session(player: player, token: token, digest: digest)
    }

    /// Ends a session: its token (`everywhere`: every token of its player) stops working.
    func end(_ session: Session, everywhere: Bool = false) async throws {
        if everywhere, let player = session.player.id {
            try await storage.removeTokens(playerID: player)
        } else {
            try await storage.removeToken(digest: session.digest)
        }
    }

    private func startSession(for player: PlayerRow) async throws -> Session {
        let token = SessionToken.generate()
        let now = settings.clock.date
        let expires = now.addingTimeInterval(tokenLifetime)
        let playerID = player.id!
        try await storage.addToken(digest: token.digest, playerID: playerID, now: now, expires: expires)
        return Session(player: player, token: token.text, digest: token.digest)
    }

    /// How long a new token works, in seconds.
    var tokenLifetime: TimeInterval { settings.tokenLifetime.inSeconds }

    /// A hash no password matches, verified at the same cost as a real one.
    private static func decoy(_ cost: ScryptCost) -> PasswordHash {
        PasswordHash(
            cost: cost, salt: Secrets.randomBytes(PasswordHash.saltLength),
            key: Secrets.randomBytes(PasswordHash.keyLength))
    }
}
