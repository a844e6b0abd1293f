import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// One run of `nanashi online` as a state machine that owns no socket, thread or terminal: it
/// logs in, seeks a game, plays it and shows the result, reconnecting whenever the connection
/// drops.
///
/// The caller feeds it events (a message arrived, the connection dropped, the player typed a
/// line, a clock tick) one at a time and carries out the actions it returns, in order: send
/// this, show that, connect again after a while. Tests drive it with plain values.
public struct OnlineSession {
    /// What the session is told about the world.
    public enum Event: Hashable, Sendable {
        /// The connection asked for by `.connect` is open.
        case connected
        /// The connection asked for by `.connect` could not be opened, for this reason.
        case unreachable(String)
        /// The open connection received a message, or closed.
        case server(ServerEvent)
        /// The name and password asked for by `.askCredentials`.
        case credentials(ClientMessage.Credentials)
        /// The player's answer to `.askToRegister`.
        case registerAnswer(Bool)
        /// A line typed by the player, without its line break.
        case line(String)
        /// Standard input ended.
        case inputEnded
        /// Time to redraw the clocks (a terminal only).
        case tick
        /// The wait asked for by `.reconnect(after:)` is over.
        case reconnectDue
    }

    /// What the caller does for the session, in the order given.
    public enum Action: Hashable, Sendable {
        /// Opens a connection to the server now; answer with `.connected` or `.unreachable`.
        case connect
        /// Waits this long, then sends `.reconnectDue`.
        case reconnect(after: Duration)
        /// Sends a message on the open connection.
        case send(Request)
        /// Closes the open connection (its `.closed` event still follows).
        case closeConnection
        /// Asks the player for a name and password; answer with `.credentials`.
        case askCredentials
        /// Asks whether to register this name; answer with `.registerAnswer`.
        case askToRegister(name: String)
        /// Keeps the session token for next time.
        case saveSession(TokenStore.Session)
        /// Forgets the kept session token (it has expired).
        case forgetSavedSession
        /// Logged in: from now on, feed typed lines and (on a terminal) clock ticks.
        case startInput
        /// Writes text as it is.
        case write(String)
        /// Writes one line.
        case say(String)
        /// Replaces the transient status line (a terminal only).
        case status(String)
        /// Erases the transient status line.
        case clearStatus
        /// Rewrites the line above the cursor, keeping what the player is typing (a terminal only).
        case rewriteLineAbove(String)
        /// The session is over: close the connection and stop.
        case finish(Ending)
        /// The session cannot go on: stop with this message as the error.
        case fail(String)
    }

    /// How the session ended.
    public enum Ending: Hashable, Sendable {
        /// The game was played to its end.
        case finished
        /// The player left (or the server refused to go on).
        case left
    }

    /// What the session needs to know from the command line and the terminal.
    public struct Settings: Sendable {
        /// The servers to play on: any of them will do, as they share one database.
        public var servers: ServerList
        public var control: TimeControl
        /// Whether `--register` was given.
        public var register: Bool
        /// The kept session to log in with first, if there is one for this server and player.
        public var savedSession: TokenStore.Session?
        /// Input and output are a real terminal: prompts wait on the line and clocks tick.
        public var isInteractive: Bool
        /// Whether the board is drawn in color.
        public var color: Bool
        /// The game is shown full screen: the runner draws `screen(at:)` after every event, so
        /// the board, the clocks and the prompt are not written as actions.
        public var fullScreen = false
        /// The built-in engine's level to play (`--ai`), with the side wanted; `nil` seeks a person.
        public var engine: (level: Int, side: Side?)?
        /// The player to challenge (`--challenge`), with the side wanted and whether it is rated,
        /// instead of seeking.
        public var challenge: (name: String, side: Side?, rated: Bool)? = nil
        /// Where the game is to start (`--layout`, or `--fen` for a challenge or the engine).
        public var start: StartChoice = .standard
        /// A password reset token from the server's operator (`--reset-token`): the password
        /// given is set as the new one (`reset_password`) instead of logging in with it.
        public var resetToken: String?

        /// What the session sends to look for a game: a person at the time control, the engine,
        /// or one named player.
        var seek: ClientMessage {
            if let challenge {
                return .challenge(
                    to: challenge.name,
                    terms: ChallengeTerms(
                        control: control, challengerSide: challenge.side, rated: challenge.rated,
                        layout: start.layout, custom: start.custom))
            }
            guard let engine else { return .seek(control, layout: start.layout) }
            return .seekEngine(
                EngineSeek(
                    level: engine.level, color: engine.side, control: control, layout: start.layout,
                    custom: start.custom))
        }
    }

    /// Where the player is.
    enum Phase: Equatable {
        /// Logging in for the first time.
        case loggingIn(LoginStep)
        /// Logged in, or back after a reconnection, not yet knowing whether a game is on.
        case joining
        /// In the pool since `since`.
        case seeking(since: ContinuousClock.Instant)
        /// At a game.
        case playing
        /// A game just ended (`game`); the player is asked about a rematch, and has asked for
        /// one if `asked`.
        case afterGame(game: Int64, asked: Bool)
    }

    /// How far the first login has come.
    enum LoginStep: Equatable {
        /// Opening the first connection.
        case connecting
        /// The kept session's token was sent.
        case savedSession(TokenStore.Session)
        /// Waiting for the player's name and password.
        case askingCredentials
        /// The name and password were sent, to register or to log in.
        case password(ClientMessage.Credentials, register: Bool, nameTaken: Bool)
        /// Waiting for the player to say whether to register the name.
        case askingToRegister(ClientMessage.Credentials)
    }

    var settings: Settings
    var phase = Phase.loggingIn(.connecting)
    var actions: [Action] = []

    /// The challenge received last, which `accept` and `decline` answer.
    var challengeReceived: String?
    /// This player accepted a challenge: the `start` to come is its game.
    var acceptedChallenge = false
    /// A takeback was asked for in this game: the `game` that follows an acceptance is its board.
    var takebackPending = false
    var connected = false
    var backoff = Backoff()
    var token: String?
    var name = ""
    var table: OnlineTable?
    /// The board is drawn from `o`'s side (kept from game to game).
    var flipped = false
    /// A `move` or `resign` is on its way and not answered yet.
    var awaitingAnswer = false
    /// After `welcome`, waiting for the `pong` that says whether a `game` came with it.
    var syncing = false
    /// A `game` came since the last `welcome`.
    var gameSinceWelcome = false
    var confirmingQuit = false
    var pending: [String] = []
    var inputEnded = false
    var promptShown = false
    /// The line just above the cursor shows the clocks (a terminal only), so a tick may redraw it.
    var clockLineAbove = false
    var lastWaitedShown = -1

    public init(_ settings: Settings) {
        self.settings = settings
    }

    /// The first actions: connecting to the server.
    public mutating func start() -> [Action] {
        [.connect]
    }

    /// Takes one event, at `now`; returns what to do about it.
    public mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        actions = []
        if case .loggingIn(let step) = phase {
            logIn(step, event: event)
        } else {
            run(event, at: now)
        }
        return actions
    }

    /// After the login: one event, then the lines it lets through, then the prompt.
    private mutating func run(_ event: Event, at now: ContinuousClock.Instant) {
        var ending: Ending?
        switch event {
        case .server(let serverEvent):
            ending = handle(serverEvent, at: now)
        case .line(let line):
            clockLineAbove = false
            promptShown = false
            pending.append(line)
        case .inputEnded:
            clockLineAbove = false
            promptShown = false
            inputEnded = true
        case .tick:
            return tick(at: now)
        case .reconnectDue:
            actions.append(.connect)
        case .connected:
            reconnected()
        case .unreachable(let reason):
            ending = unreachable(reason)
        case .credentials, .registerAnswer:
            break
        }
        if ending == nil { ending = takeInput(at: now) }
        if let ending {
            actions.append(.finish(ending))
        } else if settings.isInteractive {
            showClocks(at: now)
            showPrompt()
        }
    }

    func send(_ message: ClientMessage, id: String? = nil) -> Action {
        .send(Request(message, id: id.map { .string($0) }))
    }

    mutating func say(_ line: String) {
        clockLineAbove = false
        promptShown = false
        actions.append(.say(line))
    }
}
