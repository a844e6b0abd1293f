import ArgumentParser
import NanashiClient
import NanashiProtocol
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

    @OptionGroup var colorOption: ColorOption

    func run() async throws {
        let address = try serverOptions.address()
        let console = StandardConsole(noColor: colorOption.noColor)
        let connection = try await ServerConnection.connect(to: address)
        defer { connection.close() }
        var session = WatchSession(
            game: game, screen: WatchScreen(color: console.color, isInteractive: console.isInteractive))
        var actions = session.start()
        var inputs = WatchInput.merging(connection.events, tick: .milliseconds(200)).makeAsyncIterator()
        while true {
            while !actions.isEmpty {
                switch actions.removeFirst() {
                case .send(let request): connection.send(request)
                case .show(.write(let text)): console.write(text)
                case .show(.say(let line)): console.say(line)
                case .show(.status(let text)): console.status(text)
                case .ask(let prompt): actions += session.typed(console.ask(prompt))
                case .finish: return
                case .fail(let message): throw InputError(message)
                }
            }
            guard let input = await inputs.next() else { return }
            actions = session.handle(input, at: .now)
        }
    }
}
