import NIOCore
import NanashiClient
import NanashiCore
import NanashiProtocol

/// One simulated player: logs in, seeks, plays its games to the end with legal moves at once,
/// and now and then resigns, or drops its connection and comes back with `auth`.
///
/// Cheap by design: a bot is a state machine driven by the lines it receives, with no thread or
/// task of its own. All its state is touched only on `eventLoop`, which is what makes the
/// `@unchecked Sendable` sound.
final class Bot: LineReceiver, @unchecked Sendable {
    let eventLoop: any EventLoop
    private let settings: LoadTestSettings
    private let stats: LoadStats
    /// The address this bot connects from, if the run spreads bots over a range.
    private let source: String?
    /// The servers, each with the run's TLS context if it speaks TLS.
    private let servers: [LineServer]
    /// The server this bot connects to: where it started, or the next after one that failed.
    private var current: Int
    private var account: BotAccount
    private var random: SplitMix64
    private var channel: (any Channel)?
    private var game: Int64?
    private var side = Side.x
    private var position = Position.start
    private var ply = 0
    /// The id and send time of the move waiting for its `moved`.
    private var pendingMove: (id: Int64, sent: NIODeadline)?
    private var nextRequestID: Int64 = 0
    /// Holding a seek ticket not yet turned into a game.
    private var holdingTicket = false
    /// Games this bot has sought; it stops at its fair share of the run's games.
    private var gamesSought = 0
    /// The connection was closed on purpose, to reconnect.
    private var dropping = false
    /// Done playing (still connected, until the run stops).
    private var finished = false
    /// Stopped by the run: disconnected, no more keep-alive pings.
    private var stopped = false
    private var failedConnects = 0
    /// The id of the `register` or `auth` waiting for its answer, and how many times in a row
    /// the server was too busy to answer it.
    private var loginRequest: Int64?
    private var busyLogins = 0
    /// Logged in on the current connection.
    private var loggedIn = false
    /// The turn a thinking delay is running for, if any.
    private var scheduledTurn: (game: Int64, ply: Int)?
    /// The level of the server's engine this bot plays, game after game; `nil` plays people.
    private let engineLevel: Int?

    init(
        account: BotAccount, seed: UInt64, settings: LoadTestSettings, stats: LoadStats,
        servers: [LineServer], first: Int = 0, source: String? = nil, on eventLoop: any EventLoop,
        engineLevel: Int? = nil
    ) {
        self.engineLevel = engineLevel
        self.account = account
        self.source = source
        self.servers = servers
        current = first % servers.count
        self.random = SplitMix64(seed: seed)
        self.settings = settings
        self.stats = stats
        self.eventLoop = eventLoop
    }

    /// Connects and starts playing; call on `eventLoop`.
    func start() {
        connect()
    }

    /// Stops at once (the run is over) and disconnects; call on `eventLoop`.
    func stop() {
        finished = true
        stopped = true
        channel?.close(promise: nil)
    }

    private func connect() {
        LineConnection.connect(to: servers[current], from: source, on: eventLoop, receiver: self)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    guard !self.finished else {
                        channel.close(promise: nil)
                        return
                    }
                    self.channel = channel
                    self.dropping = false
                    self.stats.connected()
                    self.logIn()
                case .failure:
                    self.stats.error("connect_failed")
                    self.failedConnects += 1
                    // The next server in the list, while it lasts: five rounds of them.
                    self.current = (self.current + 1) % self.servers.count
                    if self.failedConnects >= 5 * self.servers.count {
                        self.finish()
                    } else {
                        self.eventLoop.scheduleTask(in: .milliseconds(200)) { self.connect() }
                    }
                }
            }
    }

    private func send(_ message: ClientMessage) -> Int64 {
        nextRequestID += 1
        if let channel { LineConnection.send(Request(message, id: .integer(nextRequestID)), on: channel) }
        return nextRequestID
    }

    private func logIn() {
        guard channel != nil, !finished else { return }
        if let token = account.token {
            loginRequest = send(.auth(token: token))
        } else {
            loginRequest = send(.register(.init(name: account.name, password: settings.password)))
        }
    }

    /// The server was too busy to log this bot in (its password hashing queue was full, say):
    /// it asks again later, waiting longer after each refusal (0.2 s doubling up to 6.4 s, with
    /// jitter), on the same connection.
    private func logInAgainLater() {
        busyLogins += 1
        let longest = 200 << min(busyLogins - 1, 5)
        let delay = Int64.random(in: Int64(longest / 2)...Int64(longest), using: &random)
        eventLoop.scheduleTask(in: .milliseconds(delay)) { self.logIn() }
    }

    /// Done playing: the bot stays connected, idle but for a keep-alive `ping`, until the run
    /// stops, so the server keeps every client of the run until the end.
    private func finish() {
        guard !finished else { return }
        finished = true
        stats.botFinished()
        keepAlive()
    }

    private func keepAlive() {
        eventLoop.scheduleTask(in: .seconds(30)) {
            guard !self.stopped, self.channel != nil else { return }
            _ = self.send(.ping)
            self.keepAlive()
        }
    }

    /// Seeks one more game if the run still wants one, else is done.
    private func seekOrFinish() {
        guard !finished else { return }
        if let engineLevel {
            _ = send(.seekEngine(EngineSeek(level: engineLevel, control: settings.engineControl)))
            return
        }
        // A fair share each: otherwise the first bots to log in would take every game and the
        // last ones, arriving later, would find none.
        let share = (2 * settings.games + settings.clients - 1) / settings.clients
        if holdingTicket || (gamesSought < share && stats.takeSeekTicket()) {
            if !holdingTicket { gamesSought += 1 }
            holdingTicket = true
            _ = send(.seek(settings.control))
        } else {
            finish()
        }
    }

    // MARK: Receiving

    func received(_ reply: Reply) {
        guard !finished else { return }
        switch reply.message {
        case .welcome(let welcome):
            loginRequest = nil
            busyLogins = 0
            loggedIn = true
            if account.token == nil { stats.registered(BotAccount(name: welcome.name, token: welcome.token)) }
            account.token = welcome.token
            // A `game` follows the welcome if one is in progress; the pong says nothing did.
            _ = send(.ping)
        case .pong:
            if game == nil { seekOrFinish() }
        case .start(let start):
            holdingTicket = false
            if engineLevel == nil {
                stats.started(start.game)
            } else {
                stats.engineGameStarted()
            }
            begin(start.game, side: start.color, fen: start.fen, ply: 0)
        case .game(let state):
            begin(state.game, side: state.color, fen: state.fen, ply: state.moves.count)
        case .moved(let moved):
            guard moved.game == game else { return }
            if engineLevel != nil {
                if reply.id == nil { stats.engineMoved() }
                pendingMove = nil
            } else if let pending = pendingMove, reply.id == .integer(pending.id) {
                let nanoseconds = (NIODeadline.now() - pending.sent).nanoseconds
                stats.moved(sent: pending.sent, microseconds: UInt32(clamping: nanoseconds / 1000))
                pendingMove = nil
            }
            // The next ply is played on the bot's own board, cheaper than reading the FEN; the
            // FEN is read only when the bot is not one ply behind (a bot that went wrong plays
            // moves the server refuses, which the report counts).
            if moved.ply == ply + 1, let next = try? position.play(moved.move) {
                position = next
            } else if let next = try? Position(fen: moved.fen) {
                position = next
            } else {
                stats.error("unreadable_fen")
                return
            }
            ply = moved.ply
            playIfMyTurn()
        case .end(let end):
            guard end.game == game else { return }
            if engineLevel == nil { stats.ended(end.game) } else { stats.engineGameEnded() }
            game = nil
            pendingMove = nil
            seekOrFinish()
        case .error(let error):
            stats.error(error.code.rawValue)
            if let pending = pendingMove, reply.id == .integer(pending.id) {
                // The move was refused (say, the server could not store it): try the turn again.
                pendingMove = nil
                eventLoop.scheduleTask(in: .milliseconds(100)) { self.playIfMyTurn() }
            }
            if let login = loginRequest, reply.id == .integer(login) {
                loginRequest = nil
                if error.code == .busy || error.code == .rateLimited {
                    logInAgainLater()
                } else {
                    // Without an account this bot cannot play; the rest of the run goes on.
                    finish()
                }
            } else if error.code == .badCredentials || error.code == .nameTaken {
                finish()
            } else if !loggedIn {
                // Answers to a login that this connection no longer waits for: nothing to do.
            } else if game == nil {
                eventLoop.scheduleTask(in: .milliseconds(100)) { self.seekOrFinish() }
            }
        case .shutdown:
            // The server is stopping: the run cannot finish its games, and the report should say so.
            stats.error("shutdown")
        case .superseded:
            // Another connection logged in as this bot: reconnecting would only fight over it.
            stats.error("superseded")
            finish()
        case .seeking, .cancelled, .bye, .leaderboard, .profile, .live, .watching, .watchedEnd, .unwatched,
            .games,
            .pgn, .rematchOffered, .rematchOffer, .rematchDeclined, .analysis, .offered, .offerMade,
            .declined, .challengeSent, .challenged, .challengeDeclined, .challengeCancelled, .challenges,
            .layouts, .levels:
            break
        }
    }

    func receivedUnreadable(_ error: ProtocolError) {
        stats.error("unreadable_reply")
    }

    func closed() {
        channel = nil
        loggedIn = false
        loginRequest = nil
        scheduledTurn = nil
        stats.disconnected()
        guard !finished else { return }
        if dropping {
            stats.reconnected()
        } else {
            stats.error("connection_closed")
        }
        let delay = Int64.random(in: 20...200, using: &random)
        eventLoop.scheduleTask(in: .milliseconds(delay)) { self.connect() }
    }

    // MARK: Playing

    private func begin(_ id: Int64, side: Side, fen: String, ply: Int) {
        game = id
        self.side = side
        self.ply = ply
        guard let start = try? Position(fen: fen) else {
            stats.error("unreadable_fen")
            return
        }
        position = start
        playIfMyTurn()
    }

    private func playIfMyTurn() {
        guard let game, position.sideToMove == side, !position.isGameOver, pendingMove == nil else { return }
        let thinking = engineLevel == nil ? Int64(settings.thinkMilliseconds) : 0
        guard thinking > 0 else { return act(in: game) }
        let turn = (game: game, ply: ply)
        if let scheduledTurn, scheduledTurn == turn { return }
        scheduledTurn = turn
        // Uniform around the mean, so the bots' moves do not arrive in lockstep.
        let delay = Int64.random(in: 0...(2 * thinking), using: &random)
        eventLoop.scheduleTask(in: .milliseconds(delay)) {
            guard let scheduled = self.scheduledTurn, scheduled == turn, !self.finished, self.channel != nil
            else { return }
            self.scheduledTurn = nil
            self.act(in: game)
        }
    }

    private func act(in game: Int64) {
        // A bot playing the engine moves at once and never resigns or drops: its game goes on.
        let policy = engineLevel == nil ? settings.policy : BotPolicy(resignChance: 0, dropChance: 0)
        switch policy.decide(position, ply: ply, using: &random) {
        case .move(let move):
            let id = send(.move(game: game, move: move.description))
            pendingMove = (id, NIODeadline.now())
        case .resign:
            stats.resigned()
            _ = send(.resign(game: game))
        case .drop:
            dropping = true
            channel?.close(promise: nil)
        }
    }
}
