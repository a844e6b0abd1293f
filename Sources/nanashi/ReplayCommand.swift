import ArgumentParser
import NanashiAI
import NanashiClient
import NanashiCommandLine
import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// `nanashi replay FILE.pgn`: steps through a recorded game at the terminal; `--game G` steps
/// through a server's finished game with the engine's analysis.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Step through a PGN game at the terminal.",
        discussion: """
            Reads the first game of the file (as 'nanashi pgn' writes it: White is x, Black is o). \
            Type n (or just Enter) for the next move, b back, s the start, e the end, a number \
            for the position after that many moves, eval for the engine's evaluation and best \
            move of the position shown, q to leave.

            With --game G instead of a file, the finished game G of a server (--server, \
            127.0.0.1:7878 by default) is replayed with the server's analysis of it (computed \
            once, then stored): under each position its evaluation, and after each mistake the \
            move the engine preferred. --analyse gives a file's game the same analysis, computed \
            here at --depth.
            """
    )

    @Argument(help: "The PGN file.")
    var file: String?

    @Option(help: "A finished game on the server to replay with its analysis, instead of a file.")
    var game: Int64?

    @OptionGroup var serverOptions: ServerOptions

    @Option(help: "How deep the engine searches for eval and --analyse, in plies.")
    var depth = 6

    @Flag(help: "Analyse the file's game first: each position's evaluation, and each mistake's better move.")
    var analyse = false

    @OptionGroup var displayOptions: DisplayOptions

    func validate() throws {
        guard (file == nil) != (game == nil) else {
            throw ValidationError("give a PGN file or --game, not both")
        }
        if analyse && game != nil {
            throw ValidationError("--analyse goes with a file: a server's game comes with its analysis")
        }
    }

    func run() async throws {
        try await ReplaySession.run(
            file: file ?? "", orGame: game, on: try serverOptions.servers(), depth: depth, analyse: analyse,
            display: displayOptions.display)
    }
}
