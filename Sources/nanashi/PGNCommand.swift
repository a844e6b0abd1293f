import ArgumentParser
import NanashiClient
import NanashiCommandLine

/// `nanashi pgn GAME`: one finished game's PGN, from a server.
struct PGNCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pgn",
        abstract: "Print a finished game's PGN.",
        discussion: """
            Asks a server (--server, 127.0.0.1:7878 by default) for the game ('nanashi games NAME' \
            lists the ids). White is x and Black is o. Save it and step through it with \
            'nanashi replay FILE.pgn'.
            """
    )

    @Argument(help: "The game's id.")
    var game: Int64

    @OptionGroup var serverOptions: ServerOptions

    func run() async throws {
        print(lines: try await StandingsQuery.pgn(game: game).lines(at: serverOptions.servers(), json: false))
    }
}
