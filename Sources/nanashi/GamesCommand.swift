import ArgumentParser
import NanashiClient
import NanashiCommandLine
import NanashiProtocol

/// `nanashi games NAME`: a player's finished games, newest first, from a server.
struct GamesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "games",
        abstract: "List a player's finished games.",
        discussion: """
            Asks a server (--server, 127.0.0.1:7878 by default). Newest first; each game's id is \
            what 'nanashi pgn' takes. A full page ends with the --before that shows older games.
            """
    )

    @Argument(help: "The player's name (case does not matter).")
    var name: String

    @Option(help: "Show only games older than this game id.")
    var before: Int64?

    @Option(help: "How many games to show (1 to 100).")
    var limit = ClientMessage.defaultArchiveLimit

    @OptionGroup var serverOptions: ServerOptions

    @Flag(help: "Print the page as JSON (the protocol's games object).")
    var json = false

    func run() async throws {
        let query = try StandingsQuery.games(name: name, before: before, limit: limit).checked()
        print(lines: try await query.lines(at: serverOptions.servers(), json: json))
    }
}
