import ArgumentParser
import NanashiClient
import NanashiCommandLine

/// `nanashi profile NAME`: one player's rating, record and recent games, from a server.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show a player's rating, record and recent games.",
        discussion: """
            Asks a server (--server, 127.0.0.1:7878 by default). The rating is shown ± its \
            deviation, with '?' while it is provisional; recent games come newest first, each with \
            the rating it won or lost.
            """
    )

    @Argument(help: "The player's name (case does not matter).")
    var name: String

    @OptionGroup var serverOptions: ServerOptions

    @Flag(help: "Print the profile as JSON (the protocol's profile object).")
    var json = false

    func run() async throws {
        print(
            lines: try await StandingsQuery.profile(name: name).lines(at: serverOptions.servers(), json: json)
        )
    }
}
