/// A bot's account: its name, and once logged in, the session token it reconnects with. The
/// server's benchmark seeding makes them and the load test's bots log in with them, through an
/// accounts file.
public struct BotAccount: Hashable, Sendable {
    public var name: String
    public var token: String?

    public init(name: String, token: String? = nil) {
        self.name = name
        self.token = token
    }

    /// The accounts file: one `name token` per line, so later runs log in with `auth` instead of
    /// registering again (registration costs an scrypt hash on the server).
    public static func file(_ accounts: [BotAccount]) -> String {
        accounts.compactMap { account in account.token.map { "\(account.name) \($0)\n" } }.joined()
    }

    /// Reads an accounts file; blank lines are skipped.
    ///
    /// - Throws: `BotAccount.FileError` naming the first line that is not `name token`.
    public static func parse(file text: String) throws(FileError) -> [BotAccount] {
        var accounts: [BotAccount] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(separator: " ")
            if fields.isEmpty { continue }
            guard fields.count == 2 else { throw FileError(line: index + 1) }
            accounts.append(BotAccount(name: String(fields[0]), token: String(fields[1])))
        }
        return accounts
    }

    /// A line of an accounts file that is not `name token`.
    public struct FileError: Error, Equatable, CustomStringConvertible {
        public var line: Int

        public init(line: Int) { self.line = line }

        public var description: String { "line \(line) is not 'name token'" }
    }
}
