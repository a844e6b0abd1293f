import ArgumentParser
import NanashiCommandLine
import NanashiServer
import NanashiTerminal

/// `nanashi serve`: runs the online server until the process is stopped.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the online server: accounts, matchmaking, rated games, leaderboard.",
        discussion: """
            Speaks protocol v1 (docs/PROTOCOL.md): one JSON object per line over TCP. Prints \
            'listening on HOST:PORT' once ready; logs go to standard error.
            """
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let settings = try options.settings()
        try await Server.serve(settings, logLevel: try options.level(), announce: StandardOutput.line)
    }
}
