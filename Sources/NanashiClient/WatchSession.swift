import NanashiProtocol
import NanashiTerminal

/// `nanashi watch` as a state machine, like `OnlineSession`: the connection's events, the clock's
/// ticks and the typed choice of a game in, actions out. It owns no socket, timer or terminal.
///
/// Without a game id it asks for the games in progress and has the runner ask which to watch;
/// then it watches that game to its end through a `WatchScreen`.
public struct WatchSession {
    /// One thing for the runner to do, in order.
    public enum Action: Hashable, Sendable {
        case send(Request)
        case show(WatchScreen.Output)
        /// Ask the person with this prompt and hand the answer to `typed(_:)`.
        case ask(String)
        /// The watch is over.
        case finish
        /// The watch cannot go on: one line for the person.
        case fail(String)
    }

    /// What the runner prompts with when there are games to pick from.
    static let pickPrompt = "watch which? (number, or # and a game id)> "

    enum Phase {
        case listing
        case picking([LiveGame])
        case watching
    }

    var phase = Phase.listing
    private var game: Int64?
    var screen: WatchScreen

    /// - Parameter game: the game to watch, or `nil` to pick one from the games in progress.
    public init(game: Int64?, screen: WatchScreen) {
        self.game = game
        self.screen = screen
    }

    /// The first requests.
    public mutating func start() -> [Action] {
        guard let game else { return [.send(Request(.live, id: .string("live")))] }
        return watch(game)
    }

    /// What an event of the connection, or a tick of the clock, does at `now`.
    public mutating func handle(_ input: WatchInput, at now: ContinuousClock.Instant) -> [Action] {
        switch (input, phase) {
        case (.tick, .watching):
            return screen.tick(at: now).map(Action.show)
        case (.tick, _):
            return []
        case (.event(.shutdown), _), (.event(.closed), _):
            return [.fail("the server closed the connection")]
        case (.event(.reply(let reply)), .listing):
            guard reply.id == .string("live") else { return [] }
            return listed(reply.message)
        case (.event(.reply), .picking):
            return []
        case (.event(.reply(let reply)), .watching):
            if case .error(let error) = reply.message, reply.id == .string("watch") {
                return [.fail(error.message)]
            }
            do {
                let shown = try screen.receive(reply.message, at: now).map(Action.show)
                return screen.isOver ? shown + [.finish] : shown
            } catch {
                return [.fail(error.description)]
            }
        }
    }

    /// The person's answer to `.ask`; `nil` is the end of input, which leaves.
    public mutating func typed(_ line: String?) -> [Action] {
        guard case .picking(let games) = phase else { return [] }
        guard let line else { return [.finish] }
        guard let id = LiveTable.pick(line, from: games) else {
            return [
                .show(.say("type a number from 1 to \(games.count), or # and a game id")),
                .ask(Self.pickPrompt),
            ]
        }
        return watch(id)
    }

    private mutating func listed(_ message: ServerMessage) -> [Action] {
        switch message {
        case .live(let games):
            let lines = LiveTable.lines(games).map { Action.show(.say($0)) }
            guard !games.isEmpty else { return lines + [.finish] }
            phase = .picking(games)
            return lines + [.ask(Self.pickPrompt)]
        case .error(let error):
            return [.fail(error.message)]
        default:
            return [.fail("the server answered \(message.type), not the games in progress")]
        }
    }

    private mutating func watch(_ id: Int64) -> [Action] {
        phase = .watching
        game = id
        return [.send(Request(.watch(game: id), id: .string("watch")))]
    }
}

extension WatchSession {
    /// Watches the game on the first of `servers` that answers at this terminal to its end, as `nanashi watch` does: its
    /// actions carried out on a connection of its own and `console`, the clocks redrawn every
    /// 200 ms.
    ///
    /// - Throws: `ConnectionError` when the server cannot be reached; `OnlineFailure` when the
    ///   watch cannot go on.
    public static func run(game: Int64?, at servers: ServerList, console: StandardConsole) async throws {
        try await run(game: game, at: servers, console: console, openFullScreen: { nil })
    }
}
