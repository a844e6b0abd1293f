import ArgumentParser
import NanashiClient
import NanashiProtocol

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

    @Option(help: "The server, HOST:PORT (default 127.0.0.1:7878), or tls://HOST:PORT for TLS.")
    var server: String?

    @Option(help: "A PEM file of the certificates to trust for a tls:// server (else the system's).")
    var ca: String?

    @Flag(help: "Do not color the board.")
    var noColor = false

    func run() async throws {
        let address = try ServerAddress.fromOption(server, ca: ca)
        let console = Console(noColor: noColor)
        let connection: ServerConnection
        do {
            connection = try await ServerConnection.connect(to: address)
        } catch {
            throw InputError(error.description)
        }
        defer { connection.close() }
        var picked = game
        if picked == nil { picked = try await pick(on: connection, console: console) }
        guard let id = picked else { return }
        connection.send(Request(.watch(game: id), id: .string("watch")))
        var screen = WatchScreen(color: console.color, isInteractive: console.isInteractive)
        for await input in WatchInput.merging(connection.events, tick: .milliseconds(200)) {
            switch input {
            case .tick: show(screen.tick(at: .now), on: console)
            case .event(.reply(let reply)):
                if case .error(let error) = reply.message, reply.id == .string("watch") {
                    throw InputError(error.message)
                }
                do {
                    show(try screen.receive(reply.message, at: .now), on: console)
                } catch {
                    throw InputError(error.description)
                }
                if screen.isOver { return }
            case .event(.shutdown), .event(.closed):
                throw InputError("the server closed the connection")
            }
        }
    }

    /// Lists the games in progress and asks which to watch; `nil` if there are none or the
    /// input ends.
    private func pick(on connection: ServerConnection, console: Console) async throws -> Int64? {
        let reply: ServerMessage
        do {
            reply = try await connection.reply(to: .live)
        } catch {
            throw InputError(error.description)
        }
        guard case .live(let games) = reply else {
            throw InputError("the server answered \(reply.type), not the games in progress")
        }
        for line in LiveTable.lines(games) { console.say(line) }
        guard !games.isEmpty else { return nil }
        while let answer = console.ask("watch which? (number, or # and a game id)> ") {
            if let id = LiveTable.pick(answer, from: games) { return id }
            console.say("type a number from 1 to \(games.count), or # and a game id")
        }
        return nil
    }

    private func show(_ outputs: [WatchScreen.Output], on console: Console) {
        for output in outputs {
            switch output {
            case .write(let text): console.write(text)
            case .say(let line): console.say(line)
            case .status(let text): console.status(text)
            }
        }
    }
}
