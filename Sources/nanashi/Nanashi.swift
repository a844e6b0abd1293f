import ArgumentParser
import NanashiServer
import NanashiTerminal

/// The one executable. Each subcommand lives in its own file and is listed here.
@main
struct Nanashi: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nanashi",
        abstract: "Ataxx: rules engine, AI, terminal client and online server.",
        subcommands: [
            PlayCommand.self,
            HotseatCommand.self,
            OnlineCommand.self,
            ServeCommand.self,
            AdminCommand.self,
            BackupCommand.self,
            LeaderboardCommand.self,
            ProfileCommand.self,
            GamesCommand.self,
            PGNCommand.self,
            WatchCommand.self,
            ReplayCommand.self,
            LoadTestCommand.self,
            SeedCommand.self,
            UAICommand.self,
            MatchCommand.self,
            BenchCommand.self,
            PerftCommand.self,
            DatagenCommand.self,
            TuneCommand.self,
            ShowCommand.self,
            LayoutsCommand.self,
        ]
    )

    /// Runs the chosen subcommand. Every error the user can cause is printed as one line on
    /// standard error and exits with code 2; help requests print as usual.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if let serve = command as? ServeCommand {
                Server.runConcurrencyOnEventLoops(count: serve.options.eventLoopCount)
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .success || error is ExitCode {
                exit(withError: error)
            }
            StandardOutput.fail(message(for: error))
        }
    }
}

/// Writes each line to standard output.
func print(lines: [String]) {
    for line in lines { print(line) }
}
