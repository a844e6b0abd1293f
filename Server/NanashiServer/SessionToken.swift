/// A session token: 32 random bytes, given to the client in base64url and stored only as
/// their SHA-256 digest, so a copy of the database lets no one in.
struct SessionToken: Sendable {
    /// What the client receives and sends back.
    let text: String
    /// What the database keeps.
    let digest: [UInt8]

    static let byteCount = 32

    /// A fresh token from the system's cryptographic generator.
    static func generate() -> SessionToken {
        let bytes = Secrets.randomBytes(byteCount)
        return SessionToken(text: Base64URL.encode(bytes), digest: Secrets.sha256(bytes))
    }

    /// The digest to look a client's token up by, or `nil` if the text cannot be a token.
    static func digest(of text: String) -> [UInt8]? {
        guard text.utf8.count <= 64, let bytes = Base64URL.decode(text), bytes.count == byteCount else {
            return nil
        }
        return Secrets.sha256(bytes)
    }
}
