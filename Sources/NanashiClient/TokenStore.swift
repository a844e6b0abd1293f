import Foundation

/// The session tokens a player's client keeps between runs, one per server, in
/// `$XDG_CONFIG_HOME/nanashi/sessions.json` (else `~/.config/nanashi/sessions.json`).
///
/// The file holds names and tokens, never passwords. It is readable by its owner only (0600,
/// in a 0700 folder) and replaced atomically, so a crash never leaves half a file.
public struct TokenStore: Sendable {
    /// A logged-in session worth keeping: who, and the token that resumes it.
    public struct Session: Hashable, Sendable, Codable {
        public var name: String
        public var token: String

        public init(name: String, token: String) {
            self.name = name
            self.token = token
        }
    }

    /// The file's full path.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The store where the environment says configuration goes, or `nil` when neither
    /// `XDG_CONFIG_HOME` (an absolute path) nor `HOME` is set.
    public static func standard(environment: [String: String]) -> TokenStore? {
        directory(environment: environment).map { TokenStore(path: $0 + "/sessions.json") }
    }

    /// `$XDG_CONFIG_HOME/nanashi`, else `$HOME/.config/nanashi`. The XDG spec ignores a relative
    /// `XDG_CONFIG_HOME`, and so does this.
    public static func directory(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config.droppingTrailingSlashes + "/nanashi"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return home.droppingTrailingSlashes + "/.config/nanashi"
        }
        return nil
    }

    /// The session kept for `server`, if any (an unreadable file counts as none).
    public func session(for server: ServerAddress) -> Session? {
        (try? load())?[server.description]
    }

    /// Keeps `session` for `server`, replacing the one kept before.
    public func save(_ session: Session, for server: ServerAddress) throws {
        var sessions = (try? load()) ?? [:]
        sessions[server.description] = session
        try write(sessions)
    }

    /// Forgets the session for `server` (a token the server refused).
    public func remove(for server: ServerAddress) throws {
        guard var sessions = try? load(), sessions[server.description] != nil else { return }
        sessions[server.description] = nil
        try write(sessions)
    }

    private func load() throws -> [String: Session] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(File.self, from: data).servers
    }

    /// The file's layout: `{"servers":{"HOST:PORT":{"name":..,"token":..}}}`.
    private struct File: Codable {
        var servers: [String: Session]
    }

    private func write(_ sessions: [String: Session]) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(File(servers: sessions))
        // Written whole to a private temporary file beside the real one, then renamed over it:
        // readers see the old file or the new one, and the token is never world-readable.
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TokenStoreError(path: temporary, errno: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fchmod(descriptor, 0o600) != 0 || fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw TokenStoreError(path: path, errno: failure)
        }
    }
}

/// The token file could not be written.
public struct TokenStoreError: Error, CustomStringConvertible {
    public let path: String
    public let errno: Int32

    public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}

extension String {
    fileprivate var droppingTrailingSlashes: String {
        var text = self
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
