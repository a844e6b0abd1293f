import NanashiClient
import NanashiProtocol

extension LoadTest {
    /// Why a run could not start: bad settings or an unreadable accounts file. One line.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs with the bot accounts of the file at `accounts`, if given: bots log in with its
    /// tokens first, and the accounts registered during the run are added to it.
    ///
    /// - Returns: the report, and a line for people if the accounts could not be written back.
    /// - Throws: `Problem` for settings out of range or an unreadable accounts file.
    public static func run(
        _ settings: LoadTestSettings, accounts: String?,
        progress: @escaping @Sendable (LoadProgress) -> Void
    ) async throws -> (report: LoadReport, note: String?) {
        var settings = settings
        if let problem = settings.problem { throw Problem(description: problem) }
        if let accounts {
            do {
                settings.accounts = try BotAccount.read(from: accounts)
            } catch {
                throw Problem(description: "bad accounts file \(accounts): \(error)")
            }
        }
        let (report, registered) = try await run(settings, progress: progress)
        guard let accounts, !registered.isEmpty else { return (report, nil) }
        do {
            try BotAccount.write(settings.accounts + registered, to: accounts)
            return (report, nil)
        } catch {
            return (report, "nanashi: cannot write accounts to \(accounts): \(error)")
        }
    }
}

extension QueryTest {
    /// Checks `settings`, then runs them.
    ///
    /// - Throws: `LoadTest.Problem`, one line: settings out of range, or the run's failure.
    public static func checkedRun(_ settings: QueryTestSettings) async throws(LoadTest.Problem) -> QueryReport
    {
        if let problem = settings.problem { throw LoadTest.Problem(description: problem) }
        do {
            return try await run(settings)
        } catch {
            throw LoadTest.Problem(description: "query run against \(settings.servers) failed: \(error)")
        }
    }
}
