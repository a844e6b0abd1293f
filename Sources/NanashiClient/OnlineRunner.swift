import NanashiTerminal

/// Carries out an `OnlineSession`'s actions at this terminal: the connection and the timers
/// through a `SessionInbox`, the prompts for a name and password, the kept session token, and
/// the output. Everything reaches the session through the inbox, one event at a time.
public struct OnlineRunner {
    let servers: ServerList
    let login: OnlineLogin
    let console: StandardConsole
    private let inbox = SessionInbox()
    /// Opens the full screen once logged in (`nil`: line by line), and the screen once open.
    private let openFullScreen: (() -> FullScreenConsole?)?
    private let screen = ScreenHolder()

    /// - Parameter fullScreen: opens the full screen for the game, once the login's prompts are
    ///   answered; `nil` (or a `nil` screen) plays line by line.
    public init(
        servers: ServerList, login: OnlineLogin, console: StandardConsole,
        fullScreen: (() -> FullScreenConsole?)? = nil
    ) {
        self.servers = servers
        self.login = login
        self.console = console
        openFullScreen = fullScreen
    }

    /// Runs the session to its end.
    ///
    /// - Throws: `OnlineFailure` when the server cannot be reached at first or refuses to log in.
    public func run(_ session: OnlineSession) async throws -> OnlineSession.Ending {
        var session = session
        defer { screen.console?.close() }
        var actions = session.start()
        while true {
            for action in actions {
                if let ending = try perform(action) {
                    inbox.connection?.close()
                    return ending
                }
            }
            if let fullScreen = screen.console {
                let (table, prompt) = session.screen(at: .now)
                fullScreen.update { state in
                    state.show(table)
                    state.prompt = prompt
                }
            }
            guard let event = await inbox.next() else { return .left }
            session.settings.fullScreen = screen.console != nil
            actions = session.handle(event, at: .now)
        }
    }

    /// Carries out one action; returns the ending once the session is over.
    private func perform(_ action: OnlineSession.Action) throws -> OnlineSession.Ending? {
        switch action {
        case .connect: inbox.connect(to: servers)
        case .reconnect(let delay): inbox.post(.reconnectDue, after: delay)
        case .send(let request): inbox.connection?.send(request)
        case .closeConnection: inbox.connection?.close()
        case .askCredentials: inbox.post(.credentials(try login.credentials(console: console)))
        case .askToRegister(let name):
            inbox.post(.registerAnswer(login.offerToRegister(name, console: console)))
        case .saveSession(let saved):
            do {
                try login.store?.save(saved, for: servers.first)
            } catch {
                console.say("note: the session was not saved: \(error)")
            }
        case .forgetSavedSession: try? login.store?.remove(for: servers.first)
        case .startInput:
            // Standard input is read on a thread of its own, so a move can arrive while the player types.
            if let fullScreen = openFullScreen?() {
                screen.console = fullScreen
                inbox.readLines { fullScreen.readLine() }
            } else {
                inbox.readLines { readLine(strippingNewline: true) }
            }
            if console.isInteractive { inbox.tick(every: .milliseconds(100)) }
        case .write(let text): output.write(text)
        case .say(let line): output.say(line)
        case .status(let text): output.status(text)
        case .clearStatus: screen.console == nil ? console.clearStatus() : ()
        case .rewriteLineAbove(let text): console.rewriteLineAbove(text)
        case .finish(let ending): return ending
        case .fail(let message): throw OnlineFailure(message)
        }
        return nil
    }
}

extension OnlineRunner {
    /// Where lines go: the full screen once it is open, else the console.
    private var output: any TerminalConsole { screen.console ?? console }
}

/// The full screen, once `.startInput` opened it.
private final class ScreenHolder: @unchecked Sendable {
    var console: FullScreenConsole?
}

/// Why an online session could not go on, in one line for the player.
public struct OnlineFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
