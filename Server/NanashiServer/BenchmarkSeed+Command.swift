import NanashiProtocol

extension BenchmarkSeed {
    /// Why `nanashi seed` stopped, in one line.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `nanashi seed`: checks the counts (`problem`), seeds the SQLite file at `path` (`games`
    /// two per player unless given), and writes the bots' tokens to the file `accounts`.
    ///
    /// - Returns: the line to print: what was added, and in how long.
    public static func run(
        databaseAt path: String, players: Int, games: Int?, bots: Int, accounts: String?
    ) throws(Failure) -> String {
        if let problem = problem(players: players, games: games, bots: bots, writesAccounts: accounts != nil)
        {
            throw Failure(description: problem)
        }
        let start = ContinuousClock.now
        let summary: SeedSummary
        do {
            summary = try seed(databaseAt: path, players: players, games: games ?? 2 * players, bots: bots)
        } catch {
            throw Failure(description: "cannot seed \(path): \(error)")
        }
        if let accounts, !summary.bots.isEmpty {
            do {
                try BotAccount.write(summary.bots, to: accounts)
            } catch {
                throw Failure(description: "cannot write accounts to \(accounts): \(error)")
            }
        }
        return summary.line(took: ContinuousClock.now - start)
    }
}
