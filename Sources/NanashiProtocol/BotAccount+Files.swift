import Foundation

extension BotAccount {
    /// The accounts in the file at `path`; none when there is no file there yet.
    ///
    /// - Throws: the system's error when the file cannot be read, or `FileError`.
    public static func read(from path: String) throws -> [BotAccount] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try parse(file: String(contentsOfFile: path, encoding: .utf8))
    }

    /// Writes `accounts` to the file at `path`, readable by its owner only: the tokens in it log
    /// the bots in.
    public static func write(_ accounts: [BotAccount], to path: String) throws {
        try file(accounts).write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}
