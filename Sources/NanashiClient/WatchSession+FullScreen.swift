import Foundation
import NanashiTerminal

extension WatchSession {
    /// The watched game as the full screen shows it at `now`: the board, the players, the clocks.
    public func view(at now: ContinuousClock.Instant) -> TableView? {
        guard let table = screen.table else { return nil }
        return TableView(
            game: table.game, labels: table.labels, clocks: String(table.clockLine(at: now).dropFirst()),
            title: "watching " + table.heading)
    }

    /// Watches the game on `servers` as `run(game:at:console:)` does, but once the game is
    /// chosen, full screen (opened by `openFullScreen`, line by line when it gives `nil`): the
    /// board stays in place, the clocks tick, and `q` (or Ctrl-D) leaves.
    ///
    /// - Throws: `ConnectionError` when the server cannot be reached; `OnlineFailure` when the
    ///   watch cannot go on.
    public static func run(
        game: Int64?, at servers: ServerList, console: StandardConsole,
        openFullScreen: () -> FullScreenConsole?
    ) async throws {
        let connection = try await ServerConnection.connect(to: servers)
        defer { connection.close() }
        var session = WatchSession(
            game: game, screen: WatchScreen(color: console.color, isInteractive: console.isInteractive))
        var fullScreen: FullScreenConsole?
        defer { fullScreen?.close() }
        let (keys, typed) = AsyncStream.makeStream(of: String?.self)
        var inputs = Merged.merging(WatchInput.merging(connection.events, tick: .milliseconds(200)), keys)
            .makeAsyncIterator()
        var actions = session.start()
        while true {
            if fullScreen == nil, case .watching = session.phase, session.screen.table != nil,
                let opened = openFullScreen()
            {
                fullScreen = opened
                opened.update { state in
                    state.boardKeys = false
                    state.keys = "q leaves"
                }
                Thread.detachNewThread {
                    while true {
                        let line = opened.readLine()
                        typed.yield(line)
                        if line == nil { break }
                    }
                }
            }
            while !actions.isEmpty {
                let action = actions.removeFirst()
                if let fullScreen {
                    switch action {
                    case .show(.write(let text)):
                        // The board is drawn from the session; what is written after the end is the result.
                        if session.screen.isOver { fullScreen.write(text) }
                    case .show(.say(let line)): fullScreen.say(line)
                    case .send(let request): connection.send(request)
                    case .show(.status), .ask: break
                    case .finish: return
                    case .fail(let message): throw OnlineFailure(message)
                    }
                    continue
                }
                switch action {
                case .send(let request): connection.send(request)
                case .show(.write(let text)): console.write(text)
                case .show(.say(let line)): console.say(line)
                case .show(.status(let text)): console.status(text)
                case .ask(let prompt): actions += session.typed(console.ask(prompt))
                case .finish: return
                case .fail(let message): throw OnlineFailure(message)
                }
            }
            if let fullScreen, let view = session.view(at: .now) { fullScreen.show(view) }
            switch await inputs.next() {
            case .watch(let input)?:
                actions = session.handle(input, at: .now)
            case .key(let line)?:
                if line == nil || ["q", "quit", "exit"].contains(line?.lowercased()) { return }
            case nil:
                return
            }
        }
    }
}

/// The watch's inputs and the lines typed on the full screen, in one stream.
private enum Merged: Sendable {
    case watch(WatchInput)
    case key(String?)

    static func merging(_ watch: AsyncStream<WatchInput>, _ keys: AsyncStream<String?>) -> AsyncStream<Merged>
    {
        AsyncStream { continuation in
            let forwarder = Task {
                for await input in watch { continuation.yield(.watch(input)) }
                continuation.finish()
            }
            let reader = Task {
                for await line in keys { continuation.yield(.key(line)) }
            }
            continuation.onTermination = { _ in
                forwarder.cancel()
                reader.cancel()
            }
        }
    }
}
