import Foundation
import NanashiClient
import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// One run of `nanashi online`: logs in, seeks a game, plays it at the terminal, and shows the
/// result, reconnecting by itself whenever the connection drops.
///
/// Everything happens on one task, one event at a time: the server's messages, the lines typed
/// (read on a thread of their own, so a move can arrive while the player is typing) and, on a
/// terminal, clock ticks.
final class OnlineSession {
    /// Something that happened, in the order it happened.
    enum Event: Sendable {
        /// A message or the end of connection number `generation` (older ones are ignored).
        case server(generation: Int, ServerEvent)
        /// A line typed, or `nil` at the end of input.
        case input(String?)
        /// Time to redraw the clocks (a terminal only).
        case tick
        /// Time to try connecting again.
        case reconnect
        /// A new connection is open.
        case connected(ServerConnection)
        /// Connecting failed, for this reason.
        case unreachable(String)
    }

    /// Where the player is.
    private enum Phase {
        /// Logging in, or back in after a reconnection, not yet knowing whether a game is on.
        case joining
        /// In the pool since `since`.
        case seeking(since: ContinuousClock.Instant)
        /// At a game.
        case playing
    }

    /// How the session ended.
    enum Ending {
        case finished
        case left
    }

    private let console: Console
    private let address: ServerAddress
    private let control: NanashiProtocol.TimeControl
    private let login: OnlineLogin
    private let renderer: BoardRenderer
    private let sink: AsyncStream<Event>.Continuation
    private var events: AsyncStream<Event>.Iterator

    private var connection: ServerConnection?
    private var generation = 0
    private var backoff = Backoff()
    private var token: String?
    private var name = ""
    private var phase = Phase.joining
    private var seekingSince: ContinuousClock.Instant?
    private var table: OnlineTable?
    private var selected: Square?
    private var flipped = false
    /// A `move` or `resign` is on its way and not answered yet.
    private var awaitingAnswer = false
    /// After `welcome`, waiting for the `pong` that says whether a `game` came with it.
    private var syncing = false
    /// A `game` came since the last `welcome`.
    private var gameSinceWelcome = false
    private var confirmingQuit = false
    private var pending: [String] = []
    private var inputEnded = false
    private var promptShown = false
    /// The line just above the cursor shows the clocks (a terminal only), so a tick may redraw it.
    private var clockLineAbove = false
    private var lastWaitedShown = -1

    init(console: Console, address: ServerAddress, control: NanashiProtocol.TimeControl, login: OnlineLogin) {
        self.console = console
        self.address = address
        self.control = control
        self.login = login
        renderer = BoardRenderer(colour: console.colour)
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        sink = continuation
        events = stream.makeAsyncIterator()
    }

    /// Runs to the end of a game or until the player leaves.
    ///
    /// - Throws: `InputError` when the server cannot be reached at first or refuses to log in.
    func run() async throws -> Ending {
        try await connect()
        try await logIn()
        startReadingInput()
        if console.isInteractive { startTicking() }
        welcomed()
        while let event = await events.next() {
            if let ending = handle(event) {
                connection?.close()
                return ending
            }
        }
        return .left
    }

    // MARK: Connecting and logging in

    private func connect() async throws {
        do {
            attach(try await ServerConnection.connect(to: address))
        } catch {
            throw InputError(error.description)
        }
    }

    private func attach(_ new: ServerConnection) {
        generation += 1
        connection = new
        let generation = generation
        let sink = sink
        Task {
            for await event in new.events { sink.yield(.server(generation: generation, event)) }
        }
    }

    private func send(_ message: ClientMessage, id: String? = nil) {
        connection?.send(Request(message, id: id.map { .string($0) }))
    }

    /// The first login: the kept token if there is one for this server (and player), else a
    /// name and password, registering when asked to.
    private func logIn() async throws {
        if let kept = login.store?.session(for: address),
            login.name.map({ $0.lowercased() == kept.name.lowercased() }) ?? true
        {
            send(.auth(token: kept.token), id: "auth")
            switch try await answer(to: "auth") {
            case .welcome(let welcome):
                accept(welcome)
                return
            case .error(let error) where error.code == .badCredentials:
                console.say("the saved session of \(kept.name) has expired; logging in again")
                try? login.store?.remove(for: address)
            case .error(let error):
                throw InputError("the server refused the saved session: \(error.message)")
            default:
                throw InputError("the server did not answer the login")
            }
        }
        if address.sendsInClearText {
            // Said once, before the password is asked for or sent: only a token goes out later.
            console.say("warning: \(address) is plain TCP: the password crosses the network in clear text")
        }
        let credentials = try login.credentials(console: console)
        var register = login.register
        // Registering found the name taken.
        var taken = false
        while true {
            send(register ? .register(credentials) : .login(credentials), id: "login")
            let reply = try await answer(to: "login")
            switch reply {
            case .welcome(let welcome):
                if register { console.say("registered \(welcome.name)") }
                accept(welcome)
                return
            case .error(let error) where error.code == .nameTaken && register:
                // Registering a name that exists: it may be this player's, so try logging in.
                register = false
                taken = true
            case .error(let error) where error.code == .badCredentials && taken:
                throw InputError("\(credentials.name) is someone else's name: choose another")
            case .error(let error) where error.code == .badCredentials && !register:
                guard console.isInteractive, login.offerToRegister(credentials.name, console: console) else {
                    throw InputError(
                        "wrong name or password for \(credentials.name) (--register creates a new account)")
                }
                register = true
            case .error(let error):
                throw InputError(error.message)
            default:
                throw InputError("the server did not answer the login")
            }
        }
    }

    /// Waits for the reply to the message sent with `id`; other messages wait in line.
    private func answer(to id: String) async throws -> ServerMessage {
        while let event = await events.next() {
            guard case .server(let from, let serverEvent) = event, from == generation else { continue }
            switch serverEvent {
            case .reply(let reply) where reply.id == .string(id): return reply.message
            case .reply: continue
            case .shutdown, .closed: throw InputError("the server closed the connection")
            }
        }
        throw InputError("the server closed the connection")
    }

    private func accept(_ welcome: Welcome) {
        name = welcome.name
        token = welcome.token
        backoff.reset()
        do {
            try login.store?.save(TokenStore.Session(name: welcome.name, token: welcome.token), for: address)
        } catch {
            say("note: the session was not saved: \(error)")
        }
    }

    /// After `welcome`: a `ping` whose `pong` comes after the `game`, if there is one, so its
    /// absence is known.
    private func welcomed() {
        syncing = true
        gameSinceWelcome = false
        send(.ping, id: "sync")
    }

    // MARK: Events

    /// Handles one event; returns how the session ends once it does.
    private func handle(_ event: Event) -> Ending? {
        var ending: Ending?
        switch event {
        case .server(let from, let serverEvent):
            guard from == generation else { return nil }
            ending = handle(serverEvent)
        case .input(let line):
            clockLineAbove = false
            promptShown = false
            if let line { pending.append(line) } else { inputEnded = true }
        case .tick:
            tick()
            return nil
        case .reconnect:
            reconnect()
        case .connected(let new):
            connected(new)
        case .unreachable(let reason):
            unreachable(reason)
        }
        if ending == nil { ending = takeInput() }
        if ending == nil, console.isInteractive {
            showClocks()
            showPrompt()
        }
        return ending
    }

    private func handle(_ event: ServerEvent) -> Ending? {
        switch event {
        case .reply(let reply):
            return handle(reply)
        case .shutdown:
            say("the server is shutting down; reconnecting when it is back")
            connection?.close()
        case .closed:
            connectionLost()
        }
        return nil
    }

    private func handle(_ reply: Reply) -> Ending? {
        let now = ContinuousClock.now
        switch reply.message {
        case .welcome(let welcome):
            accept(welcome)
            say("reconnected")
            welcomed()
        case .pong where reply.id == .string("sync"):
            if gameSinceWelcome {
                syncing = false
            } else if table != nil {
                // Back, but the server has no game for us: it ended while we were away. Input
                // waits (still syncing) for the profile that says how.
                send(.profile(name: name), id: "away")
            } else {
                syncing = false
                seek()
            }
        case .seeking:
            if seekingSince == nil {
                seekingSince = now
                say("waiting for an opponent at \(control.shortText)...")
            }
            phase = .seeking(since: seekingSince!)
        case .start(let start):
            let waited = seekingSince.map { Int(($0.duration(to: now)).components.seconds) } ?? 0
            seekingSince = nil
            console.clearStatus()
            let table = OnlineTable(start, now: now)
            say(
                "found an opponent after \(ClockText.waited(seconds: waited)): you play \(table.side) against "
                    + "\(table.opponent.name) (\(table.opponent.rating)) at \(table.control.shortText)"
                    + "; type help for the commands")
            begin(table)
        case .game(let state):
            gameSinceWelcome = true
            let resumed = table?.id == state.game
            begin(OnlineTable(state, now: now))
            say(resumed ? "back in game \(state.game)" : "resuming your game \(state.game)")
        case .moved(let moved):
            guard var table, moved.game == table.id else { break }
            let mover = table.position.sideToMove
            guard table.apply(moved, now: now) else { break }
            self.table = table
            if mover == table.side { awaitingAnswer = false }
            selected = nil
            draw()
        case .end(let end):
            guard let table, end.game == table.id else { break }
            finish(end, table: table)
            return .finished
        case .profile(let profile) where reply.id == .string("away"):
            return endedWhileAway(profile)
        case .superseded:
            // Coming back would only push the other session out in turn.
            say("you logged in somewhere else; this session is closed and will not reconnect")
            connection?.close()
            return .left
        case .error(let error):
            return refused(error, id: reply.id)
        default:
            break
        }
        return nil
    }

    private func begin(_ new: OnlineTable) {
        table = new
        phase = .playing
        selected = nil
        awaitingAnswer = false
        draw()
    }

    private func seek() {
        send(.seek(control), id: "seek")
    }

    private func refused(_ error: ProtocolError, id: RequestID?) -> Ending? {
        switch id {
        case .string("move"), .string("resign"):
            awaitingAnswer = false
            say("the server refused: \(error.message)")
        case .string("auth"):
            say("the server refused the session (\(error.message)); run nanashi online again to log in")
            return .left
        case .string("seek"):
            say("the server refused the seek: \(error.message)")
            return .left
        default:
            say("server: \(error.message)")
        }
        return nil
    }

    /// The game ended while this client was away; the profile's recent games say how. The
    /// final count is left out: moves may have been played since this client last heard.
    private func endedWhileAway(_ profile: Profile) -> Ending {
        guard let table else { return .finished }
        say("the game ended while you were away")
        guard let game = profile.recent.first(where: { $0.game == table.id }) else { return .finished }
        let winner: Side? =
            switch game.result {
            case .win: table.side
            case .loss: table.side.opponent
            case .draw: nil
            }
        let over = GameOver(winner: winner, reason: Self.reason(game.reason))
        say(String(over.summary(final: table.position).prefix { $0 != "\n" }))
        say(
            Self.verdict(
                winner: winner, side: table.side, before: profile.rating - game.ratingChange,
                after: profile.rating))
        return .finished
    }

    private func finish(_ end: GameEnd, table: OnlineTable) {
        let over = GameOver(winner: end.result.winner, reason: Self.reason(end.reason))
        console.write(over.summary(final: table.position))
        say(
            Self.verdict(
                winner: end.result.winner, side: table.side, before: end.rating.before,
                after: end.rating.after))
    }

    /// `you win; rating 1500 → 1662 (+162)`.
    static func verdict(winner: Side?, side: Side, before: Int, after: Int) -> String {
        (winner == nil ? "a draw" : winner == side ? "you win" : "you lose")
            + "; rating \(before) → \(after) (\(StandingsTable.signed(after - before)))"
    }

    static func reason(_ reason: EndReason) -> GameOver.Reason {
        switch reason {
        case .pieces: .noPieces
        case .locked: .lockedBoard
        case .fifty: .fiftyMoveRule
        case .resign: .resignation
        case .timeout: .timeout
        case .abandon: .abandonment
        case .aborted: .aborted
        }
    }

    // MARK: Losing and finding the server

    private func connectionLost() {
        connection = nil
        generation += 1
        awaitingAnswer = false
        syncing = false
        console.clearStatus()
        let delay = backoff.next()
        say("the connection to \(address) was lost; reconnecting in \(Self.seconds(delay))")
        scheduleReconnect(after: delay)
    }

    private func scheduleReconnect(after delay: Duration) {
        let sink = sink
        Task {
            try? await Task.sleep(for: delay)
            sink.yield(.reconnect)
        }
    }

    /// One attempt, made on a task of its own; its outcome comes back as an event.
    private func reconnect() {
        let sink = sink
        let address = address
        Task {
            do {
                sink.yield(.connected(try await ServerConnection.connect(to: address)))
            } catch {
                sink.yield(.unreachable((error as? ConnectionError)?.reason ?? "\(error)"))
            }
        }
    }

    private func connected(_ new: ServerConnection) {
        attach(new)
        guard let token else { return }
        // Not back until the `pong` after `welcome`: input waits till then.
        syncing = true
        send(.auth(token: token), id: "auth")
    }

    private func unreachable(_ reason: String) {
        let delay = backoff.next()
        say("cannot reach \(address) (\(reason)); trying again in \(Self.seconds(delay))")
        scheduleReconnect(after: delay)
    }

    private static func seconds(_ duration: Duration) -> String {
        let milliseconds =
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    // MARK: Input

    /// Reads standard input on its own thread, a line at a time, for the event loop.
    private func startReadingInput() {
        let sink = sink
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { sink.yield(.input(line)) }
            sink.yield(.input(nil))
        }
    }

    private func startTicking() {
        let sink = sink
        Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                sink.yield(.tick)
            }
        }
    }

    /// Whether a line typed now can be acted on. On a terminal, always; piped lines wait for
    /// this player's turn, so that a script of moves plays out against whatever the opponent
    /// takes time to do.
    private var readyForInput: Bool {
        if console.isInteractive { return true }
        guard case .playing = phase, let table, connection != nil, !syncing, !awaitingAnswer else {
            return false
        }
        return table.isOurTurn
    }

    /// Acts on the lines waiting, as many as can be acted on now.
    private func takeInput() -> Ending? {
        while readyForInput {
            passIfForced()
            guard readyForInput else { return nil }
            guard !pending.isEmpty else {
                guard inputEnded else { return nil }
                if !console.isInteractive { showPrompt() }
                console.write("\n")
                return leave(reason: "input ended")
            }
            let line = pending.removeFirst()
            if !console.isInteractive {
                showPrompt()
                console.write(line + "\n")
            }
            promptShown = false
            if let ending = handleLine(line) { return ending }
        }
        return nil
    }

    /// A player with no move must pass; the client does it for them.
    private func passIfForced() {
        guard case .playing = phase, let table, table.isOurTurn, !awaitingAnswer, connection != nil, !syncing,
            !table.position.hasMove
        else { return }
        say("\(table.side) has no move and passes")
        send(.move(game: table.id, move: Move.pass.description), id: "move")
        awaitingAnswer = true
    }

    private func handleLine(_ line: String) -> Ending? {
        if confirmingQuit {
            confirmingQuit = false
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return leave(reason: nil)
            default:
                say("staying in the game")
                return nil
            }
        }
        let command: Command
        do {
            command = try Command(parsing: line)
        } catch {
            say(error.description)
            return nil
        }
        switch command {
        case .nothing:
            break
        case .help:
            say(Self.helpText)
        case .quit:
            guard case .playing = phase, table != nil, console.isInteractive else {
                return leave(reason: nil)
            }
            confirmingQuit = true
            say("leave the game? Your clock keeps running, and you lose if you are not back in time.")
        case .undo: say("undo is not available in an online game")
        case .hint: say("hint is not available in an online game")
        case .save, .load: say("save and load are not available in an online game")
        case .flip:
            flipped.toggle()
            draw()
        case .board:
            draw()
        case .moves, .resign, .square, .move:
            guard case .playing = phase, let table else {
                say("no game yet: waiting for an opponent (quit to stop)")
                return nil
            }
            play(command, in: table)
        }
        return nil
    }

    /// The commands about the game: only with a game on, and moves only on this player's turn.
    private func play(_ command: Command, in table: OnlineTable) {
        let position = table.position
        switch command {
        case .moves:
            say("legal moves: " + position.legalMoves().map(\.description).joined(separator: " "))
            return
        case .resign:
            guard connection != nil else { return say("not connected: wait for the connection to come back") }
            send(.resign(game: table.id), id: "resign")
            awaitingAnswer = true
            return
        default:
            break
        }
        guard table.isOurTurn else { return say("wait: it is \(position.sideToMove)'s move") }
        guard !awaitingAnswer else { return say("wait: the server has not answered your last move") }
        guard connection != nil, !syncing else {
            return say("not connected: wait for the connection to come back")
        }
        switch command {
        case .square(let square):
            switch Selection.action(for: square, selected: selected, in: position) {
            case .success(.select(let square)):
                selected = square
                draw()
            case .success(.deselect):
                selected = nil
                draw()
            case .success(.play(let move)):
                send(move, in: table)
            case .failure(let problem):
                say(problem.description)
            }
        case .move(let move):
            do {
                _ = try position.play(move)
            } catch {
                return say(error.description)
            }
            send(move, in: table)
        default:
            break
        }
    }

    private func send(_ move: Move, in table: OnlineTable) {
        send(.move(game: table.id, move: move.description), id: "move")
        awaitingAnswer = true
    }

    private func leave(reason: String?) -> Ending {
        console.clearStatus()
        if case .playing = phase, table != nil {
            say(
                (reason.map { $0 + ": " } ?? "")
                    + "leaving; the game goes on, and you lose it if you are not back within the server's grace period"
            )
        } else {
            send(.cancel)
            say((reason.map { $0 + ": " } ?? "") + "leaving")
        }
        return .left
    }

    // MARK: Output

    private func say(_ line: String) {
        clockLineAbove = false
        promptShown = false
        console.say(line)
    }

    private func draw() {
        guard let table else { return }
        console.write(
            renderer.render(
                table.position, lastMove: table.game.lastMove, selected: selected, flipped: flipped,
                labels: table.labels))
        console.say(
            " "
                + ClockText.line(
                    table.clocks(at: .now),
                    toMove: table.position.isGameOver ? nil : table.position.sideToMove))
        clockLineAbove = console.isInteractive
        promptShown = false
    }

    /// On a terminal, keeps a clock line just above the prompt, so the clocks go on ticking
    /// after a message.
    private func showClocks() {
        guard !clockLineAbove, case .playing = phase, let table, !table.position.isGameOver else { return }
        console.say(" " + ClockText.line(table.clocks(at: .now), toMove: table.position.sideToMove))
        clockLineAbove = true
        promptShown = false
    }

    private var prompt: String {
        if confirmingQuit { return "leave? (y/n)> " }
        guard case .playing = phase, let table, table.isOurTurn, !awaitingAnswer else { return "" }
        return selected.map { "\(table.side) [\($0)]> " } ?? "\(table.side)> "
    }

    /// On a terminal, the prompt is shown whenever the loop waits; piped, only before a line
    /// is used (so the transcript reads like a session).
    private func showPrompt() {
        guard !promptShown else { return }
        guard case .playing = phase else { return }
        let text = prompt
        if !text.isEmpty { console.write(text) }
        promptShown = true
    }

    private func tick() {
        let now = ContinuousClock.now
        switch phase {
        case .seeking(let since):
            let waited = Int(since.duration(to: now).components.seconds)
            guard waited != lastWaitedShown else { return }
            lastWaitedShown = waited
            console.status(
                "waiting for an opponent at \(control.shortText): \(ClockText.waited(seconds: waited))")
        case .playing:
            guard clockLineAbove, let table, !table.position.isGameOver else { return }
            console.rewriteLineAbove(
                " " + ClockText.line(table.clocks(at: now), toMove: table.position.sideToMove))
        case .joining:
            break
        }
    }

    static let helpText = """
        Moves:  type a square with your piece (b2) to see where it can go, then the destination (c3).
                A square alone (c3) clones there; two squares (a1c3) jump. A forced pass is played for you.
        moves          list the legal moves
        flip           turn the board around
        board          draw the board again
        resign         give up this game
        quit           leave (the game goes on: come back with nanashi online before the grace period ends)
        Not online: undo, hint, save, load.
        """
}
