import ArgumentParser
import NanashiClient
import NanashiCommandLine
import NanashiTerminal

/// `nanashi watch [GAME]`: follows a game in progress on a server, move by move, to its end.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a game in progress on a server.",
        discussion: """
            Without a game id, lists the games in progress (highest-rated first) to pick from: \
            type its number, or # and a game id. Then shows the board and both clocks, live, with \
            each move as it comes, until the game ends. Watching needs no account. Ctrl-C leaves.
            """
    )

    @Argument(help: "The game's id (default: pick from the games in progress).")
    var game: Int64?

    @OptionGroup var serverOptions: ServerOptions

    @OptionGroup var displayOptions: DisplayOptions

    func run() async throws {
        let display = displayOptions.display
        let console = display.console()
        try await WatchSession.run(
            game: game, at: try serverOptions.servers(), console: console,
            openFullScreen: { display.openFullScreen(colored: console) })
    }
}
