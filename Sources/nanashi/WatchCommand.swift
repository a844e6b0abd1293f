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
        var watch = WatchScreen(console: console)
        for await input in WatchInput.merging(connection.events, tick: .milliseconds(200)) {
            switch input {
            case .tick: watch.tick()
            case .event(.reply(let reply)):
                if case .error(let error) = reply.message, reply.id == .string("watch") {
                    throw InputError(error.message)
                }
                if try watch.receive(reply.message) { return }
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
}

/// What the watch loop waits for: the server's next event, or the time to redraw the clocks.
enum WatchInput: Sendable {
    case event(ServerEvent)
    case tick

    /// The connection's events with a tick every `interval` between them; ends with the events.
    static func merging(_ events: AsyncStream<ServerEvent>, tick interval: Duration) -> AsyncStream<
        WatchInput
    > {
        AsyncStream { continuation in
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    continuation.yield(.tick)
                }
            }
            let forwarder = Task {
                for await event in events { continuation.yield(.event(event)) }
                ticker.cancel()
                continuation.finish()
            }
            continuation.onTermination = { _ in
                ticker.cancel()
                forwarder.cancel()
            }
        }
    }
}

/// The watcher's screen: the board after each move, and the clock line kept ticking below it
/// on a terminal.
struct WatchScreen {
    let console: Console
    let renderer: BoardRenderer
    private(set) var table: WatchTable?

    init(console: Console) {
        self.console = console
        renderer = BoardRenderer(color: console.color)
    }

    /// Shows a message of the watched game; returns true once the game is over.
    mutating func receive(_ message: ServerMessage) throws -> Bool {
        let now = ContinuousClock.now
        switch message {
        case .watching(let watched):
            do {
                table = try WatchTable(watched, now: now)
            } catch {
                throw InputError("the server sent a position this client cannot read: \(error)")
            }
            console.say(table!.heading)
            draw()
        case .moved(let moved):
            guard table?.apply(moved, now: now) == true else { return false }
            draw()
        case .watchedEnd(let end):
            guard table?.id == end.game else { return false }
            table!.finish(end, now: now)
            console.say(table!.clockLine(at: now))
            console.write(table!.endText ?? "")
            return true
        default:
            break
        }
        return false
    }

    /// Redraws the clock line (a terminal only).
    func tick() {
        guard let table, table.end == nil else { return }
        console.status(table.clockLine(at: .now))
    }

    private func draw() {
        guard let table else { return }
        console.write(
            "\n" + renderer.render(table.position, lastMove: table.game.lastMove, labels: table.labels))
        if console.isInteractive {
            console.status(table.clockLine(at: .now))
        } else {
            console.say(table.clockLine(at: .now))
        }
    }
}
