import ArgumentParser
import NanashiClient
import NanashiProtocol

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
        let address = try serverOptions.address()
        let reply = try await LeaderboardCommand.Source.ask(address, .pgn(game: game))
        guard case .pgn(let pgn) = reply else {
            throw InputError("the server answered \(reply.type), not a PGN")
        }
        print(pgn.pgn, terminator: pgn.pgn.hasSuffix("\n") ? "" : "\n")
    }
}
