import NanashiRuntime

/// A stored password hash: `scrypt$<log2N>$<r>$<p>$<salt>$<key>`, salt and key in base64url.
///
/// The parameters travel with each hash, so raising the cost later leaves old hashes verifiable.
struct PasswordHash: Hashable, Sendable, CustomStringConvertible {
    let cost: ScryptCost
    let salt: [UInt8]
    let key: [UInt8]

    static let saltLength = 16
    static let keyLength = 32

    /// Hashes a password with a fresh random salt. Slow on purpose: call it off the event loop.
    static func make(password: String, cost: ScryptCost) -> PasswordHash? {
        let salt = Secrets.randomBytes(saltLength)
        guard
            let key = Secrets.scrypt(
                password: Array(password.utf8), salt: salt, cost: cost, length: keyLength)
        else { return nil }
        return PasswordHash(cost: cost, salt: salt, key: key)
    }

    /// Reads a stored hash, or `nil` if it is not in this format.
    init?(stored text: String) {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "scrypt",
            let log2N = Int(fields[1]), (1...30).contains(log2N),
            let r = Int(fields[2]), (1...64).contains(r),
            let p = Int(fields[3]), (1...64).contains(p),
            let salt = Base64URL.decode(String(fields[4])), !salt.isEmpty,
            let key = Base64URL.decode(String(fields[5])), !key.isEmpty
        else { return nil }
        self.init(cost: ScryptCost(log2N: log2N, r: r, p: p), salt: salt, key: key)
    }

    init(cost: ScryptCost, salt: [UInt8], key: [UInt8]) {
        self.cost = cost
        self.salt = salt
        self.key = key
    }

    /// Whether the password matches, compared in constant time. Slow on purpose.
    func verify(_ password: String) -> Bool {
        guard
            let candidate = Secrets.scrypt(
                password: Array(password.utf8), salt: salt, cost: cost, length: key.count)
        else { return false }
        return Secrets.constantTimeEqual(candidate, key)
    }

    /// The stored form.
    var description: String {
        "scrypt$\(cost.log2N)$\(cost.r)$\(cost.p)$\(Base64URL.encode(salt))$\(Base64URL.encode(key))"
    }
}
