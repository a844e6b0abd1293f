import ArgumentParser
import NanashiClient
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

    func validate() throws {
        guard (1...ClientMessage.maximumArchiveLimit).contains(limit) else {
            throw ValidationError("--limit is 1 to \(ClientMessage.maximumArchiveLimit)")
        }
    }

    func run() async throws {
        let address = try serverOptions.address()
        let archive = try await ServerConnection.ask(
            .games(name: name, before: before, limit: limit), at: address, for: "a list of games"
        ) { if case .games(let archive) = $0 { archive } else { nil } }
        if json {
            print(Wire.encode(archive))
        } else {
            for line in ArchiveTable.games(archive, pageSize: limit) { print(line) }
        }
    }
}
