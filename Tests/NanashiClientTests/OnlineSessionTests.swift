import NanashiCore
import NanashiProtocol
import NanashiTerminal
import Testing

@testable import NanashiClient

// The online session as a state machine: events in, actions out, no socket, thread or terminal.

private let servers = ServerList(ServerAddress(host: "127.0.0.1", port: 7878))
private let control = TimeControl(initial: 600, increment: 0)
private let welcome = Welcome(name: "ann", token: "tok1", rating: 1500, rd: 350, games: 0)
private let epoch = ContinuousClock.now

private func session(saved: TokenStore.Session? = nil, register: Bool = false, interactive: Bool = false)
    -> OnlineSession
{
    OnlineSession(
        OnlineSession.Settings(
            servers: servers, control: control, register: register, savedSession: saved,
            isInteractive: interactive, color: false))
}

private func send(_ message: ClientMessage, id: String? = nil) -> OnlineSession.Action {
    .send(Request(message, id: id.map { .string($0) }))
}

private func reply(_ message: ServerMessage, id: String? = nil) -> OnlineSession.Event {
    .server(.reply(Reply(message, id: id.map { .string($0) })))
}

extension OnlineSession {
    /// The event at `seconds` after `epoch`.
    fileprivate mutating func at(_ seconds: Double, _ event: Event) -> [Action] {
        handle(event, at: epoch + .milliseconds(Int64(seconds * 1000)))
    }

    /// Logged in with a saved session and synced with no game on: the seek is sent.
    fileprivate static func seeking(interactive: Bool = false) -> OnlineSession {
        var online = session(saved: .init(name: "ann", token: "tok1"), interactive: interactive)
        _ = online.start()
        _ = online.at(0, .connected)
        _ = online.at(0, reply(.welcome(welcome), id: "auth"))
        _ = online.at(0, reply(.pong, id: "sync"))
        _ = online.at(0, reply(.seeking, id: "seek"))
        return online
    }
}

private let gameStart = GameStart(
    game: 7, color: .x, opponent: Opponent(name: "bob", rating: 1480), fen: Position.start.fen,
    control: TimeControl(initial: 600, increment: 0))

/// The lines written by a run of actions, as the terminal would show them.
private func text(_ actions: [OnlineSession.Action]) -> String {
    actions.map { action in
        switch action {
        case .write(let text): text
        case .say(let line): line + "\n"
        default: ""
        }
    }.joined()
}

@Test func aSavedSessionLogsInWithItsTokenAndSyncsBeforeSeeking() {
    var online = session(saved: .init(name: "ann", token: "tok1"))
    #expect(online.start() == [.connect])
    #expect(online.at(0, .connected) == [send(.auth(token: "tok1"), id: "auth")])
    #expect(
        online.at(0, reply(.welcome(welcome), id: "auth")) == [
            .saveSession(.init(name: "ann", token: "tok1")), .startInput, send(.ping, id: "sync"),
        ])
    // No `game` came before the `pong`: nothing is on, so the client seeks.
    #expect(online.at(0, reply(.pong, id: "sync")) == [send(.seek(control), id: "seek")])
    #expect(online.at(0, reply(.seeking, id: "seek")) == [.say("waiting for an opponent at 10+0...")])
    // A second `seeking` (after a reconnection) says nothing again.
    #expect(online.at(1, reply(.seeking, id: "seek")) == [])
}

@Test func anExpiredSavedSessionAsksForTheNameAndPassword() {
    var online = session(saved: .init(name: "ann", token: "old"))
    _ = online.start()
    _ = online.at(0, .connected)
    #expect(
        online.at(0, reply(.error(ProtocolError(.badCredentials, "no such session")), id: "auth")) == [
            .say("the saved session of ann has expired; logging in again"), .forgetSavedSession,
            .askCredentials,
        ])
    let credentials = ClientMessage.Credentials(name: "ann", password: "password1")
    #expect(online.at(0, .credentials(credentials)) == [send(.login(credentials), id: "login")])
}

@Test func registeringATakenNameTriesItsPasswordAndFailsClearlyWhenItIsSomeoneElses() {
    var online = session(register: true)
    _ = online.start()
    #expect(online.at(0, .connected) == [.askCredentials])
    let credentials = ClientMessage.Credentials(name: "ann", password: "password1")
    #expect(online.at(0, .credentials(credentials)) == [send(.register(credentials), id: "login")])
    #expect(
        online.at(0, reply(.error(ProtocolError(.nameTaken, "taken")), id: "login")) == [
            send(.login(credentials), id: "login")
        ])
    #expect(
        online.at(0, reply(.error(ProtocolError(.badCredentials, "wrong")), id: "login")) == [
            .fail("ann is someone else's name: choose another")
        ])
}

@Test func registeringANewNameSaysSo() {
    var online = session(register: true)
    _ = online.start()
    _ = online.at(0, .connected)
    _ = online.at(0, .credentials(.init(name: "ann", password: "password1")))
    #expect(
        online.at(0, reply(.welcome(welcome), id: "login")) == [
            .say("registered ann"), .saveSession(.init(name: "ann", token: "tok1")), .startInput,
            send(.ping, id: "sync"),
        ])
}

@Test func aWrongPasswordOffersToRegisterOnlyAtATerminal() {
    let credentials = ClientMessage.Credentials(name: "ann", password: "nope")
    let wrong = reply(.error(ProtocolError(.badCredentials, "wrong")), id: "login")
    var piped = session()
    _ = piped.start()
    _ = piped.at(0, .connected)
    _ = piped.at(0, .credentials(credentials))
    #expect(
        piped.at(0, wrong) == [.fail("wrong name or password for ann (--register creates a new account)")])

    var terminal = session(interactive: true)
    _ = terminal.start()
    _ = terminal.at(0, .connected)
    _ = terminal.at(0, .credentials(credentials))
    #expect(terminal.at(0, wrong) == [.askToRegister(name: "ann")])
    #expect(terminal.at(0, .registerAnswer(true)) == [send(.register(credentials), id: "login")])
}

@Test func theFirstConnectionFailingOrClosingEndsTheSession() {
    var unreachable = session()
    _ = unreachable.start()
    #expect(
        unreachable.at(0, .unreachable("Connection refused")) == [
            .fail("cannot connect to 127.0.0.1:7878: Connection refused")
        ])
    var closed = session(saved: .init(name: "ann", token: "tok1"))
    _ = closed.start()
    _ = closed.at(0, .connected)
    #expect(closed.at(0, .server(.closed)) == [.fail("the server closed the connection")])
}

@Test func aStartDrawsTheBoardAndPipedMovesWaitForTheirTurn() {
    var online = OnlineSession.seeking()
    // A move typed before the game waits for it.
    #expect(online.at(1, .line("b6")) == [])
    let started = online.at(12, reply(.start(gameStart)))
    let board = BoardRenderer().render(.start, labels: [.x: "you", .o: "bob 1480"])
    #expect(
        text(started)
            == "found an opponent after 0:12: you play x against bob (1480) at 10+0; type ? for help\n"
            + board + " *x 10:00.0   o 10:00.0\n" + "x> b6\n")
    #expect(started.last == send(.move(game: 7, move: "b6"), id: "move"))
    // The next line waits for the server's answer and o's move.
    #expect(online.at(13, .line("b3")) == [])
}

@Test func theServerMovesAreDrawnWithTheClocksRunningForTheSideToMove() {
    var online = OnlineSession.seeking()
    _ = online.at(0, reply(.start(gameStart)))
    _ = online.at(1, .line("b6"))
    let afterX = try! Position.start.play(.clone(to: Square("b6")!))
    let moved = online.at(
        2,
        reply(
            .moved(Moved(game: 7, move: "b6", ply: 1, fen: afterX.fen, clock: Clocks(x: 599_000, o: 600_000)))
        ))
    #expect(text(moved).hasSuffix("  x 9:59.0  *o 10:00.0\n"))
    // The same move again (an echo) changes nothing.
    #expect(
        online.at(
            3,
            reply(
                .moved(
                    Moved(game: 7, move: "b6", ply: 1, fen: afterX.fen, clock: Clocks(x: 599_000, o: 600_000))
                ))
        ) == [])
}

@Test func aLostConnectionIsRetriedWithBackoffAndResumedWithTheToken() {
    var online = OnlineSession.seeking()
    #expect(
        online.at(1, .server(.closed)) == [
            .clearStatus, .say("the connection to 127.0.0.1:7878 was lost; reconnecting in 0.5 s"),
            .reconnect(after: .milliseconds(500)),
        ])
    #expect(online.at(2, .reconnectDue) == [.connect])
    #expect(
        online.at(2, .unreachable("Connection refused")) == [
            .say("cannot reach 127.0.0.1:7878 (Connection refused); trying again in 1 s"),
            .reconnect(after: .seconds(1)),
        ])
    #expect(online.at(3, .connected) == [send(.auth(token: "tok1"), id: "auth")])
    #expect(
        online.at(3, reply(.welcome(welcome), id: "auth")) == [
            .saveSession(.init(name: "ann", token: "tok1")), .say("reconnected"), send(.ping, id: "sync"),
        ])
}

@Test func theServerShuttingDownClosesTheConnectionToReconnectLater() {
    var online = OnlineSession.seeking()
    #expect(
        online.at(1, .server(.shutdown)) == [
            .say("the server is shutting down; reconnecting when it is back"), .closeConnection,
        ])
}

@Test func theEndShowsTheResultAndTheRatingChangeAndFinishes() {
    var online = OnlineSession.seeking()
    _ = online.at(0, reply(.start(gameStart)))
    let end = GameEnd(
        game: 7, outcome: Outcome(winner: .o, reason: .timeout),
        rating: RatingChange(before: 1500, after: 1338))
    #expect(
        online.at(1, reply(.end(end))) == [
            .write("game over: o wins (x ran out of time)\nfinal count: x 2, o 2\n"),
            .say("you lose; rating 1500 → 1338 (-162)"), .finish(.finished),
        ])
}

@Test func theEndOfPipedInputLeavesWithAWordAboutTheGame() {
    // Piped, the end of input waits for the game (lines are used on this player's turns).
    var piped = OnlineSession.seeking()
    #expect(piped.at(1, .inputEnded) == [])
    var seeking = OnlineSession.seeking(interactive: true)
    #expect(
        seeking.at(1, .inputEnded) == [
            .write("\n"), .clearStatus, send(.cancel), .say("input ended: leaving"), .finish(.left),
        ])
    var playing = OnlineSession.seeking()
    _ = playing.at(0, reply(.start(gameStart)))
    let left = playing.at(1, .inputEnded)
    #expect(
        left == [
            .write("x> "), .write("\n"), .clearStatus,
            .say(
                "input ended: leaving; the game goes on, and you lose it if you are not back within the server's grace period"
            ),
            .finish(.left),
        ])
}

@Test func atATerminalTheWaitAndTheClocksTick() {
    var online = OnlineSession.seeking(interactive: true)
    #expect(online.at(3.5, .tick) == [.status("waiting for an opponent at 10+0: 0:03")])
    // Within the same second, nothing changes.
    #expect(online.at(3.9, .tick) == [])
    _ = online.at(4, reply(.start(gameStart)))
    #expect(online.at(6.25, .tick) == [.rewriteLineAbove(" *x 9:57.7   o 10:00.0")])
}

/// The wait's ticking status does not cover a challenge received while seeking: it stands until
/// it is answered or ends, then the wait shows again.
@Test func aChallengeReceivedWhileSeekingStaysInViewUntilAnswered() {
    var online = OnlineSession.seeking(interactive: true)
    #expect(online.at(1.5, .tick) == [.status("waiting for an opponent at 10+0: 0:01")])
    let terms = ChallengeTerms(
        control: TimeControl(initial: 300, increment: 3), challengerSide: .x, rated: false)
    let notice = ChallengeNotice(challenge: "C3", player: "carl", rating: 1620, terms: terms)
    #expect(
        online.at(2, reply(.challenged(notice)))
            == [.say("carl (1620) challenges you to 5+3, casual, you play o: accept or decline")])
    #expect(online.at(3.5, .tick) == [])
    #expect(online.at(9.5, .tick) == [])
    _ = online.at(10, reply(.challengeCancelled(challenge: "C3", reason: .withdrawn)))
    #expect(online.at(11.5, .tick) == [.status("waiting for an opponent at 10+0: 0:11")])
}

@Test func commandsOfflineOnlyAreRefusedAndTheBoardCanBeFlipped() {
    var online = OnlineSession.seeking()
    _ = online.at(0, reply(.start(gameStart)))
    #expect(text(online.at(1, .line("undo"))) == "x> undo\nundo is not available in an online game\n")
    let flipped = BoardRenderer().render(.start, flipped: true, labels: [.x: "you", .o: "bob 1480"])
    #expect(text(online.at(1, .line("flip"))).hasPrefix("x> flip\n" + flipped))
}

@Test func aPositionTheClientCannotReadIsOneClearMessageNotAWrongBoard() {
    var online = OnlineSession.seeking()
    var broken = gameStart
    broken.fen = "x5o/7/7 x 0 1"
    let actions = online.at(0, reply(.start(broken)))
    #expect(actions.first == .clearStatus)
    #expect(actions.last == .finish(.left))
    #expect(text(actions).hasPrefix("the server sent a position this client cannot read ("))
    #expect(text(actions).hasSuffix("); leaving\n"))
}

@Test func aNewerLoginElsewhereEndsTheSessionWithoutReconnecting() {
    var online = OnlineSession.seeking()
    _ = online.at(0, reply(.start(gameStart)))
    #expect(
        online.at(1, reply(.superseded)) == [
            .say("you logged in somewhere else; this session is closed and will not reconnect"),
            .finish(.left),
        ])
}

@Test func aPasswordBoundForAnotherMachineInClearTextIsWarnedOfFirst() {
    var online = OnlineSession(
        OnlineSession.Settings(
            servers: ServerList(ServerAddress(host: "192.168.1.20", port: 7878)), control: control,
            register: false,
            savedSession: nil, isInteractive: false, color: false))
    _ = online.start()
    #expect(
        online.at(0, .connected) == [
            .say("warning: 192.168.1.20:7878 is plain TCP: the password crosses the network in clear text"),
            .askCredentials,
        ])
}

@Test func aSquareTypedOnlineSelectsThroughTheGameLoopAndTheMoveGoesToTheServer() {
    var online = OnlineSession.seeking()
    _ = online.at(0, reply(.start(gameStart)))
    let labels: [Side: String] = [.x: "you", .o: "bob 1480"]
    let g1 = Square("g1")!
    #expect(
        text(online.at(1, .line("g1")))
            == "x> g1\n" + BoardRenderer().render(.start, selected: g1, labels: labels)
            + " *x 9:59.0   o 10:00.0\n")
    let chosen = online.at(2, .line("f2"))
    #expect(text(chosen) == "x [g1]> f2\n")
    #expect(chosen.last == send(.move(game: 7, move: "f2"), id: "move"))
    // The server's moves are the game's: x's own once accepted, then o's as it arrives.
    var game = Game()
    try! game.play(.clone(to: Square("f2")!))
    _ = online.at(
        3,
        reply(
            .moved(
                Moved(
                    game: 7, move: "f2", ply: 1, fen: game.current.fen, clock: Clocks(x: 597_000, o: 600_000))
            )))
    try! game.play(.clone(to: Square("b2")!))
    #expect(
        text(
            online.at(
                5,
                reply(
                    .moved(
                        Moved(
                            game: 7, move: "b2", ply: 2, fen: game.current.fen,
                            clock: Clocks(x: 597_000, o: 598_000))
                    ))))
            == BoardRenderer().render(game.current, lastMove: game.lastMove, labels: labels)
            + " *x 9:57.0   o 9:58.0\n")
}

@Test func aForcedPassOnlineIsSaidAndSentForThePlayer() {
    var online = OnlineSession.seeking()
    var walledIn = gameStart
    // x on a7, walled in by blockers: no move but the pass, while o on g1 can move.
    walledIn.fen = "x--4/---4/---4/7/7/7/6o x 0 1"
    let started = online.at(0, reply(.start(walledIn)))
    #expect(
        Array(started.suffix(2)) == [
            .say("x has no move and passes"), send(.move(game: 7, move: "0000"), id: "move"),
        ])
}

@Test func withAnEngineLevelTheSessionSeeksTheEngineAndSaysTheGameIsUnrated() {
    var online = OnlineSession(
        OnlineSession.Settings(
            servers: servers, control: control, register: false,
            savedSession: .init(name: "ann", token: "tok1"),
            isInteractive: false, color: false, engine: (level: 7, side: .o)))
    _ = online.start()
    _ = online.at(0, .connected)
    _ = online.at(0, reply(.welcome(welcome), id: "auth"))
    #expect(
        online.at(0, reply(.pong, id: "sync"))
            == [send(.seekEngine(EngineSeek(level: 7, color: .o, control: control)), id: "seek")])
    #expect(
        online.at(0, reply(.seeking, id: "seek"))
            == [.say("starting a game against the engine at level 7 at 10+0...")])
    var start = gameStart
    start.opponent = Opponent(name: "AI level 7", rating: 1500)
    // The engine's player is shown at its level's strength, not at the server's unrated 1500.
    let started = text(online.at(0, reply(.start(start))))
    #expect(started.contains("ready: you play x against AI level 7 (about 1350) at 10+0; type ? for help\n"))
    #expect(started.contains(" x 2 pieces (you)   o 2 pieces (AI level 7, about 1350)\n"))
    let ended = text(
        online.at(
            1,
            reply(
                .end(
                    GameEnd(
                        game: 7, outcome: Outcome(winner: .o, reason: .resignation),
                        rating: RatingChange(before: 1500, after: 1500))))))
    #expect(ended.hasSuffix("you lose (unrated)\n"))
}

/// `--ai` with `--layout` or `--fen`: the seek for the engine names the start.
@Test(arguments: [("cross", nil), (nil, "x5o/7/7/3o3/7/7/o5x x 0 1")] as [(String?, String?)])
func anEngineSeekNamesItsStart(layout: String?, fen: String?) throws {
    let start = try StartChoice(layout: layout, fen: fen)
    var online = OnlineSession(
        OnlineSession.Settings(
            servers: servers, control: control, register: false,
            savedSession: .init(name: "ann", token: "tok1"),
            isInteractive: false, color: false, engine: (level: 7, side: .o), start: start))
    _ = online.start()
    _ = online.at(0, .connected)
    _ = online.at(0, reply(.welcome(welcome), id: "auth"))
    let seek = EngineSeek(level: 7, color: .o, control: control, layout: start.layout, custom: start.custom)
    #expect(online.at(0, reply(.pong, id: "sync")) == [send(.seekEngine(seek), id: "seek")])
    #expect(seek.start == (try fen.map { try Position(fen: $0) } ?? Layout.named("cross")!.position))
}

@Test func ratingsAtTheEndsOfTheIntegersAreShownWithoutOverflowing() {
    #expect(
        OnlineSession.verdict(winner: nil, side: .x, before: Int.min, after: Int.max)
            == "a draw; rating -9223372036854775808 → 9223372036854775807 (+18446744073709551615)")
    #expect(
        OnlineSession.verdict(winner: .o, side: .x, before: Int.max, after: Int.min)
            == "you lose; rating 9223372036854775807 → -9223372036854775808 (-18446744073709551615)")
    #expect(OnlineSession.verdict(winner: .x, side: .x, before: 7, after: 7) == "you win; rating 7 → 7 (0)")
}

extension OnlineSession {
    /// In game 7 (as x), the connection lost and back: the server has no game for the player any
    /// more, so the session has asked for the profile that says how it ended.
    fileprivate static func backAfterTheGameEndedAway(rated: Bool = true) -> OnlineSession {
        var online = OnlineSession.seeking()
        var start = gameStart
        start.rated = rated
        _ = online.at(0, reply(.start(start)))
        _ = online.at(1, .server(.closed))
        _ = online.at(2, .reconnectDue)
        _ = online.at(2, .connected)
        _ = online.at(2, reply(.welcome(welcome), id: "auth"))
        #expect(
            online.at(2, reply(.pong, id: "sync")) == [
                .send(Request(.profile(name: "ann"), id: .string("away")))
            ])
        return online
    }
}

private func profile(rating: Int, recent: [RecentGame] = [], computer: [RecentGame] = []) -> Profile {
    Profile(
        name: "ann", rating: rating, rd: 80, rank: 3, games: 9, wins: 4, losses: 4, draws: 1, recent: recent,
        computer: computer)
}

@Test func aGameEndedAwayWithARatingChangeThatOverflowsIsShownWithoutOverflowing() {
    var online = OnlineSession.backAfterTheGameEndedAway()
    let lost = RecentGame(
        game: 7, opponent: "bob", color: .x, outcome: Outcome(winner: .o, reason: .timeout), ratingChange: 1)
    #expect(
        text(online.at(3, reply(.profile(profile(rating: Int.min, recent: [lost])), id: "away")))
            == "the game ended while you were away\ngame over: o wins (x ran out of time)\n"
            + "you lose; rating -9223372036854775808\n")
}

@Test func aQuitLeftUnansweredWhenTheGameEndsDoesNotTakeTheRematchsFirstMove() {
    var online = OnlineSession.seeking(interactive: true)
    _ = online.at(0, reply(.start(gameStart)))
    #expect(text(online.at(1, .line("quit"))).contains("leave the game?"))
    // The opponent resigns before the player answers; a rematch follows.
    let end = GameEnd(
        game: 7, outcome: Outcome(winner: .x, reason: .resignation),
        rating: RatingChange(before: 1500, after: 1510))
    _ = online.at(2, reply(.end(end)))
    _ = online.at(3, .line("y"))
    var rematch = gameStart
    rematch.game = 8
    let started = online.at(4, reply(.start(rematch)))
    #expect(!text(started).contains("leave? (y/n)"))
    // The new game's first line is a move, not the answer to the old question.
    #expect(online.at(5, .line("b6")).contains(send(.move(game: 8, move: "b6"), id: "move")))
}

@Test func aRefusedQuestionAboutAGameEndedAwayFinishesTheSessionClearly() {
    var online = OnlineSession.backAfterTheGameEndedAway()
    #expect(
        online.at(3, reply(.error(ProtocolError(.busy, "try again later")), id: "away")) == [
            .say("the game ended while you were away; the server did not say how (try again later)"),
            .finish(.finished),
        ])
}

@Test func aGameAgainstTheEngineEndedAwayIsFoundAmongTheGamesAgainstTheComputer() {
    var online = OnlineSession.backAfterTheGameEndedAway()
    let lost = RecentGame(
        game: 7, opponent: "AI level 3", color: .x, outcome: Outcome(winner: .o, reason: .timeout),
        ratingChange: 0)
    #expect(
        text(online.at(3, reply(.profile(profile(rating: 1500, computer: [lost])), id: "away")))
            == "the game ended while you were away\ngame over: o wins (x ran out of time)\nyou lose (unrated)\n"
    )
}

@Test func aCasualGameEndedAwayIsShownUnratedWithoutARatingLine() {
    var online = OnlineSession.backAfterTheGameEndedAway(rated: false)
    let won = RecentGame(
        game: 7, opponent: "bob", color: .x, outcome: Outcome(winner: .x, reason: .resignation),
        ratingChange: 0)
    #expect(
        text(online.at(3, reply(.profile(profile(rating: 1500, recent: [won])), id: "away")))
            == "the game ended while you were away\ngame over: x wins (o resigned)\nyou win (unrated)\n")
}

@Test func pipedInputThatHasEndedLeavesWhenTheConnectionIsLostOrUnreachable() {
    // Input ended while waiting for the opponent's move: the connection then drops.
    var lost = OnlineSession.seeking()
    _ = lost.at(0, reply(.start(gameStart)))
    _ = lost.at(1, .line("b6"))
    #expect(lost.at(2, .inputEnded) == [])
    #expect(
        lost.at(3, .server(.closed)) == [
            .clearStatus,
            .say(
                "input ended and the connection to 127.0.0.1:7878 was lost: leaving; the game goes on, "
                    + "and you lose it if you are not back within the server's grace period"),
            .finish(.left),
        ])
    // Input ended while reconnecting: the next failed attempt leaves.
    var away = OnlineSession.seeking()
    _ = away.at(1, .server(.closed))
    #expect(away.at(2, .inputEnded) == [])
    #expect(away.at(3, .reconnectDue) == [.connect])
    #expect(
        away.at(3, .unreachable("Connection refused")) == [
            .clearStatus,
            .say("input ended and 127.0.0.1:7878 cannot be reached (Connection refused): leaving"),
            .finish(.left),
        ])
    // Lines still to play (the opponent's turn when the connection dropped): the session
    // reconnects for them, and gives up only after attempts enough to outlast a restart.
    var queued = OnlineSession.seeking()
    _ = queued.at(
        0,
        reply(
            .start(
                GameStart(
                    game: 7, color: .o, opponent: Opponent(name: "bob", rating: 1480),
                    fen: Position.start.fen, control: TimeControl(initial: 600, increment: 0)))))
    _ = queued.at(1, .line("b2"))
    _ = queued.at(1, .inputEnded)
    #expect(queued.at(2, .server(.closed)).contains(.reconnect(after: .milliseconds(500))))
    var second = 2.0
    for _ in 1..<OnlineSession.attemptsOnceInputEnded {
        #expect(queued.at(second, .reconnectDue) == [.connect])
        #expect(queued.at(second, .unreachable("Connection refused")).contains { $0.isReconnect })
        second += 10
    }
    #expect(queued.at(second, .reconnectDue) == [.connect])
    #expect(queued.at(second, .unreachable("Connection refused")).last == .finish(.left))
}

extension OnlineSession.Action {
    fileprivate var isReconnect: Bool {
        if case .reconnect = self { return true }
        return false
    }
}

@Test func aResetTokenSetsThePasswordGivenInsteadOfLoggingInWithIt() {
    var settings = OnlineSession.Settings(
        servers: servers, control: control, register: false, savedSession: .init(name: "ann", token: "old"),
        isInteractive: false, color: false)
    settings.resetToken = "reset-token"
    var online = OnlineSession(settings)
    _ = online.start()
    // The kept session is not used: the reset is what was asked for.
    #expect(online.at(0, .connected) == [.askCredentials])
    let credentials = ClientMessage.Credentials(name: "ann", password: "new password")
    #expect(
        online.at(0, .credentials(credentials)) == [
            send(.resetPassword(credentials, token: "reset-token"), id: "login")
        ])
    #expect(
        online.at(0, reply(.welcome(welcome), id: "login")) == [
            .say("new password set for ann"), .saveSession(.init(name: "ann", token: "tok1")), .startInput,
            send(.ping, id: "sync"),
        ])

    var refused = OnlineSession(settings)
    _ = refused.start()
    _ = refused.at(0, .connected)
    _ = refused.at(0, .credentials(credentials))
    #expect(
        refused.at(
            0, reply(.error(ProtocolError(.badCredentials, "used or expired reset token")), id: "login"))
            == [.fail("the password reset was refused: used or expired reset token")])
}
