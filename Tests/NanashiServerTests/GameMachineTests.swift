import NanashiCore
import NanashiProtocol
import NanashiTransport
import Testing

@testable import NanashiServer

// A game as a value: each test tells it what happens, at a given instant, and checks what it
// asks for, action by action. No socket, storage, timer or sleep.

/// The instant the tests count from.
private let start = ContinuousClock.now

/// `seconds` after `start`.
private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1000)) }

private let xBox = Outbox(id: 1) { _ in }
private let oBox = Outbox(id: 2) { _ in }
private let watcher = Outbox(id: 3) { _ in }
private let xAgain = Outbox(id: 4) { _ in }

private let players: [Side: Game.Player] = [
    .x: .init(id: 10, name: "ann", rating: 1500), .o: .init(id: 11, name: "bob", rating: 1600.4),
]

/// Five minutes and two seconds a move: long enough that no flag falls unless a test wants it.
private let control = TimeControl(initial: 300, increment: 2)

/// Clones that turn nothing over: x b6, o f6, x f2, o b2.
private let opening = ["b6", "f6", "f2", "b2"]

private func move(_ text: String) -> Move { try! Move(notation: text) }

/// Game 7 after `played` of `opening`, both players connected, not begun.
private func game(
    played: Int = 0, outboxes: [Side: Outbox] = [.x: xBox, .o: oBox], isRated: Bool = true,
    control: TimeControl = control
) -> GameMachine {
    let moves = opening.prefix(played).map(move)
    let position = try! moves.reduce(Position.start) { try $0.play($1) }
    return GameMachine(
        id: 7, control: control, players: players, isRated: isRated, position: position, moves: moves,
        outboxes: outboxes, firstMoveLimit: .seconds(30), abandonGrace: .seconds(60), at: at(0))
}

/// `game(played:)`, begun at 0 s.
private func begun(played: Int = 0, isRated: Bool = true) -> GameMachine {
    var machine = game(played: played, isRated: isRated)
    _ = machine.handle(.begin, at: at(0))
    return machine
}

/// The lines the actions send to each connection, as the wire writes them: `"1 {…}"`.
private func lines(_ actions: [GameMachine.Action]) -> [String] {
    actions.flatMap { action -> [String] in
        switch action {
        case .send(let message, let outbox, let id): ["\(outbox.id) " + Wire.line(Reply(message, id: id))]
        case .sendWatched(let message, let outboxes):
            outboxes.map { "\($0.id) " + Wire.line(Reply(message)) }
        default: []
        }
    }
}

private let over = ProtocolError(.noSuchGame, "game 7 is over")
private let playAgain = ProtocolError(.internalError, "the move could not be stored; play it again")

/// `side` plays `text`, read at `time` seconds: what the game asks.
private func storing(
    _ machine: inout GameMachine, _ text: String, by side: Side, id: RequestID? = nil, at time: Double
)
    -> [GameMachine.Action]
{
    machine.handle(.move(text, by: side, requestID: id, readAt: nil), at: at(time))
}

/// A casual game of four moves, begun at 0 s, in which x then played c6 at 10 s and o e6 at 20 s.
private func casualAfterTwoMoreMoves() -> GameMachine {
    var machine = begun(played: 4, isRated: false)
    _ = storing(&machine, "c6", by: .x, at: 10)
    _ = machine.handle(.moveStored, at: at(10))
    _ = storing(&machine, "e6", by: .o, at: 20)
    _ = machine.handle(.moveStored, at: at(20))
    return machine
}

@Suite struct GameMachineTests {
    // MARK: Beginning

    @Test func theStartTellsBothPlayersAndArmsTheFlagAndTheFirstMoveLimit() {
        var machine = game()
        let actions = machine.handle(.begin, at: at(0))
        #expect(
            lines(actions) == [
                #"1 {"color":"x","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":7,"increment":2,"initial":300,"legal":["f1","f2","g2","a6","b6","b7","g1e1","g1e2","g1e3","g1f3","g1g3","a7a5","a7b5","a7c5","a7c6","a7c7"],"opponent":{"name":"bob","rating":1600},"type":"start"}"#,
                #"2 {"color":"o","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":7,"increment":2,"initial":300,"opponent":{"name":"ann","rating":1500},"type":"start"}"#,
            ])
        #expect(actions.suffix(2) == [.arm(.flag, at: at(300)), .arm(.abort, at: at(30))])
        #expect(machine.phase == .playing)
        #expect(machine.clock.running == .x)
    }

    @Test func aGameBegunWithBothFirstMovesPlayedHasNoFirstMoveLimit() {
        var machine = game(played: 2)
        #expect(machine.handle(.begin, at: at(0)).last == .arm(.flag, at: at(300)))
        #expect(machine.armed == [.flag: at(300)])
    }

    // MARK: Moves

    /// A move is checked, stored (both clocks stopped: the mover's at the read, increment
    /// added), then announced: the mover's copy answers the request, the opponent's lists their
    /// moves, the watchers' has neither. The opponent's clock starts once it is stored.
    @Test func aLegalMoveIsStoredThenAnnounced() {
        var machine = begun()
        _ = machine.handle(.watch(watcher, requestID: nil), at: at(1))
        let asked = machine.handle(.move("b6", by: .x, requestID: .integer(3), readAt: at(5)), at: at(5.5))
        #expect(asked == [.storeMove(ply: 1, move: move("b6"), clocks: Clocks(x: 297_000, o: 300_000))])
        #expect(machine.isLive)
        guard case .storing = machine.phase else {
            Issue.record("not storing: \(machine.phase)")
            return
        }
        #expect(machine.moves.isEmpty)
        let announced = machine.handle(.moveStored, at: at(6))
        #expect(
            lines(announced) == [
                #"1 {"clock":{"o":300000,"x":297000},"converted":[],"fen":"x5o/1x5/7/7/7/7/o5x o 0 1","game":7,"id":3,"move":"b6","ply":1,"type":"moved"}"#,
                #"2 {"clock":{"o":300000,"x":297000},"converted":[],"fen":"x5o/1x5/7/7/7/7/o5x o 0 1","game":7,"legal":["b1","a2","b2","f6","g6","f7","a1c1","a1c2","a1a3","a1b3","a1c3","g7e5","g7f5","g7g5","g7e6","g7e7"],"move":"b6","ply":1,"type":"moved"}"#,
                #"3 {"clock":{"o":300000,"x":297000},"converted":[],"fen":"x5o/1x5/7/7/7/7/o5x o 0 1","game":7,"move":"b6","ply":1,"type":"moved"}"#,
            ])
        // The flag armed at the start wakes before o's time could run out: it is kept.
        #expect(announced.count == 3)
        #expect(machine.phase == .playing)
        #expect(machine.moves == [move("b6")])
        #expect(machine.clock.reading(at: at(7)) == Clocks(x: 297_000, o: 299_000))
    }

    /// The second move ends the first-move limit; a flag armed to wake before the next deadline is kept.
    @Test func theSecondMoveCancelsTheFirstMoveLimit() {
        var machine = begun(played: 1)
        _ = storing(&machine, "f6", by: .o, at: 10)
        let announced = machine.handle(.moveStored, at: at(10))
        #expect(announced.first == .cancel(.abort))
        #expect(announced.count == 3)
        #expect(machine.armed == [.flag: at(300)])
        // x's clock runs from 10 s: the flag armed for 300 s is kept, as it wakes first.
        _ = storing(&machine, "f2", by: .x, at: 20)
        #expect(machine.handle(.moveStored, at: at(20)).count == 2)
        #expect(machine.armed == [.flag: at(300)])
    }

    /// Every move refused, with the code and the message the player gets, and nothing changed.
    @Test(
        arguments: [
            (
                "zz9", Side.x,
                ProtocolError(
                    .illegalMove,
                    #"'zz9' is not a move: 'zz9' is not a move: expected a square like f2, two squares like a7c5, or 0000"#
                )
            ),
            (
                "h9", .x,
                ProtocolError(.illegalMove, "'h9' is not a move: 'h9' is not a square: expected a1 to g7")
            ),
            (
                "d4", .x,
                ProtocolError(.illegalMove, "illegal move d4: none of your pieces is next to the destination")
            ),
            (
                "0000", .x,
                ProtocolError(.illegalMove, "illegal move 0000: you can only pass when you have no move")
            ),
            ("a7", .x, ProtocolError(.illegalMove, "illegal move a7: the destination is occupied")),
            ("f6", .o, ProtocolError(.notYourTurn, "it is your opponent's move")),
        ])
    func aRefusedMoveChangesNothing(text: String, side: Side, refusal: ProtocolError) {
        var machine = begun()
        let before = machine
        #expect(
            machine.handle(.move(text, by: side, requestID: .integer(1), readAt: nil), at: at(2)) == [
                .reject(refusal)
            ])
        #expect(machine.phase == before.phase && machine.clock == before.clock && machine.moves.isEmpty)
    }

    @Test func aMoveWhileTheLastIsStoredIsRefused() {
        var machine = begun()
        _ = storing(&machine, "b6", by: .x, at: 1)
        let refusal = ProtocolError(.notYourTurn, "your last move is still being stored")
        #expect(storing(&machine, "b5", by: .x, at: 2) == [.reject(refusal)])
        #expect(storing(&machine, "f6", by: .o, at: 2) == [.reject(refusal)])
        #expect(machine.handle(.moveStored, at: at(3)).count == 2)
        #expect(machine.moves == [move("b6")])
    }

    /// The mover is asked to play again, charged only up to the read: the time the store took
    /// is given back, and their clock runs again from the failure.
    @Test(arguments: [false, true])
    func aMoveThatIsNotStoredIsPlayedAgain(refused: Bool) {
        var machine = begun()
        _ = storing(&machine, "b6", by: .x, at: 5)
        let failed = machine.handle(.moveStoreFailed(refused: refused), at: at(9))
        #expect(failed == (refused ? [.refused] : []) + [.reject(playAgain)])
        #expect(machine.phase == .playing && machine.moves.isEmpty)
        #expect(machine.clock.running == .x)
        #expect(machine.clock.reading(at: at(10)) == Clocks(x: 294_000, o: 300_000))
        #expect(storing(&machine, "b6", by: .x, at: 10).count == 1)
    }

    /// A line read before the turn began costs nothing.
    @Test func aMoveSentAheadCostsNothing() {
        var machine = begun(played: 1)
        _ = storing(&machine, "f6", by: .o, at: 10)
        _ = machine.handle(.moveStored, at: at(11))
        let asked = machine.handle(.move("f2", by: .x, requestID: nil, readAt: at(10.5)), at: at(11.2))
        #expect(asked == [.storeMove(ply: 3, move: move("f2"), clocks: Clocks(x: 302_000, o: 292_000))])
    }

    // MARK: Time

    @Test func theFlagFallsOnTheSideToMove() {
        var machine = begun(played: 4)
        #expect(
            machine.handle(.timerFired(.flag), at: at(300)) == [
                .storeResult(Outcome(winner: .o, reason: .timeout), rated: true)
            ])
        guard case .finishing = machine.phase else {
            Issue.record("\(machine.phase)")
            return
        }
        #expect(
            machine.handle(.move("b5", by: .x, requestID: nil, readAt: nil), at: at(301)) == [.reject(over)])
    }

    @Test func aFlagThatWakesEarlySleepsOn() {
        var machine = begun(played: 4)
        #expect(machine.handle(.timerFired(.flag), at: at(299.5)) == [.arm(.flag, at: at(300))])
        #expect(machine.isLive)
    }

    /// The move read after the time ran out loses, and is not stored.
    @Test func aMoveReadTooLateLosesOnTime() {
        var machine = begun(played: 4)
        #expect(
            storing(&machine, "b5", by: .x, at: 300.001)
                == [.cancel(.flag), .storeResult(Outcome(winner: .o, reason: .timeout), rated: true)])
    }

    /// A move being stored was read in time: the flag waits for it.
    @Test func theFlagWaitsForTheMoveBeingStored() {
        var machine = begun(played: 4)
        _ = storing(&machine, "b5", by: .x, at: 299)
        #expect(machine.handle(.timerFired(.flag), at: at(300)) == [])
        let announced = machine.handle(.moveStored, at: at(301))
        #expect(announced.last == .arm(.flag, at: at(601)))
    }

    // MARK: The first-move limit

    @Test func aSideThatDoesNotMoveFirstAbortsTheGame() {
        var machine = begun(played: 1)
        let aborted = Outcome(winner: nil, reason: .aborted)
        #expect(
            machine.handle(.timerFired(.abort), at: at(30)) == [
                .cancel(.flag), .storeResult(aborted, rated: false),
            ])
        #expect(
            lines(machine.handle(.resultStored([:]), at: at(30.1))) == [
                #"1 {"game":7,"outcome":{"reason":"aborted","winner":null},"rating":{"after":1500,"before":1500},"type":"end"}"#,
                #"2 {"game":7,"outcome":{"reason":"aborted","winner":null},"rating":{"after":1600,"before":1600},"type":"end"}"#,
            ])
        #expect(machine.phase == .over)
    }

    /// The limit ends while the first move is stored: the game is aborted before it is
    /// announced, and the mover told the game is over, after the end.
    @Test func theFirstMoveStoredAfterTheLimitIsNotPlayed() {
        var machine = begun()
        _ = storing(&machine, "b6", by: .x, at: 29)
        #expect(machine.handle(.timerFired(.abort), at: at(30)) == [])
        #expect(
            machine.handle(.moveStored, at: at(31))
                == [
                    .cancel(.flag), .storeResult(Outcome(winner: nil, reason: .aborted), rated: false),
                    .reject(over),
                ])
        #expect(machine.moves.isEmpty)
    }

    /// The second move, read in time and stored after the limit, counts.
    @Test func theSecondMoveStoredAfterTheLimitCounts() {
        var machine = begun(played: 1)
        _ = storing(&machine, "f6", by: .o, at: 29)
        #expect(machine.handle(.timerFired(.abort), at: at(30)) == [])
        let announced = machine.handle(.moveStored, at: at(31))
        #expect(announced.count == 2)
        #expect(machine.isLive && machine.moves.count == 2 && machine.armed == [.flag: at(300)])
    }

    // MARK: Players away

    @Test func aPlayerAwayPastTheGracePeriodLoses() {
        var machine = begun(played: 4)
        #expect(machine.handle(.left(.o, oBox), at: at(10)) == [.arm(.absence(.o), at: at(70))])
        #expect(
            machine.handle(.timerFired(.absence(.o)), at: at(70))
                == [.cancel(.flag), .storeResult(Outcome(winner: .x, reason: .abandonment), rated: true)])
    }

    @Test func aPlayerBackInTimeGetsTheGameAndPlaysOn() {
        var machine = begun(played: 1)
        _ = machine.handle(.left(.x, xBox), at: at(10))
        let back = machine.handle(.rejoin(.x, xAgain), at: at(20))
        #expect(
            lines(back) == [
                #"4 {"clock":{"o":280000,"x":300000},"color":"x","fen":"x5o/1x5/7/7/7/7/o5x o 0 1","game":7,"increment":2,"initial":300,"moves":["b6"],"opponent":{"name":"bob","rating":1600},"type":"game"}"#
            ])
        #expect(back.first == .cancel(.absence(.x)))
        #expect(machine.outboxes[.x] == xAgain && machine.absenceDeadlines.isEmpty)
        // The grace period's timer, had it woken anyway, changes nothing.
        #expect(machine.handle(.timerFired(.absence(.x)), at: at(70)) == [])
        #expect(machine.isLive)
    }

    /// Only the connection the player plays on counts: an older one closing changes nothing.
    @Test func anOlderConnectionClosingIsNotLeaving() {
        var machine = begun()
        _ = machine.handle(.rejoin(.x, xAgain), at: at(1))
        #expect(machine.handle(.left(.x, xBox), at: at(2)) == [])
        #expect(machine.outboxes[.x] == xAgain)
    }

    /// After a restart no clock runs until both are back; if neither comes back, the side to
    /// move (whose clock would have run) loses, whichever grace period ends first.
    @Test(arguments: [Side.x, .o])
    func neitherBackAfterARestartLosesTheSideToMove(firstToWake: Side) {
        var machine = game(played: 4, outboxes: [:])
        #expect(
            machine.handle(.resume, at: at(0)) == [
                .arm(.absence(.x), at: at(60)), .arm(.absence(.o), at: at(60)),
            ])
        #expect(machine.phase == .paused && machine.clock.running == nil)
        #expect(
            machine.handle(.timerFired(.absence(firstToWake)), at: at(60))
                == [
                    .cancel(.absence(firstToWake.opponent)),
                    .storeResult(Outcome(winner: .o, reason: .abandonment), rated: true),
                ])
    }

    @Test func bothBackAfterARestartStartsTheClocks() {
        var machine = game(played: 1, outboxes: [:])
        _ = machine.handle(.resume, at: at(0))
        let first = machine.handle(.rejoin(.o, oBox), at: at(5))
        #expect(first.count == 2 && machine.phase == .paused)
        let both = machine.handle(.rejoin(.x, xBox), at: at(8))
        #expect(both.first == .cancel(.absence(.x)))
        #expect(both.suffix(2) == [.arm(.flag, at: at(308)), .arm(.abort, at: at(38))])
        #expect(machine.phase == .playing && machine.clock.running == .o)
    }

    /// After a restart x plays while o is away, o comes back while the move is stored (both
    /// clocks start), and the store fails: x is charged nothing for it, and gains nothing either.
    @Test func aMoveNotStoredAfterBothCameBackGainsNoTime() {
        var machine = game(played: 2, outboxes: [.x: xBox])
        _ = machine.handle(.resume, at: at(0))
        _ = storing(&machine, "f2", by: .x, at: 5)
        _ = machine.handle(.rejoin(.o, oBox), at: at(20))
        #expect(machine.handle(.moveStoreFailed(refused: false), at: at(25)).last == .reject(playAgain))
        #expect(machine.phase == .playing && machine.clock.running == .x)
        #expect(machine.clock.reading(at: at(25)) == Clocks(x: 300_000, o: 300_000))
    }

    @Test func aGameTheRulesEndedBeforeARestartEndsAsItResumes() {
        let won = try! Position(fen: "7/7/7/7/7/7/xxx4 o 0 1")
        var machine = GameMachine(
            id: 7, control: control, players: players, position: won, moves: [move("b1")],
            firstMoveLimit: .seconds(30), abandonGrace: .seconds(60), at: at(0))
        #expect(
            machine.handle(.resume, at: at(0)) == [
                .storeResult(Outcome(winner: .x, reason: .noPieces), rated: true)
            ])
    }

    // MARK: Resignation

    @Test func aResignationIsAnsweredWithTheEnd() {
        var machine = begun(played: 4)
        #expect(
            machine.handle(.resign(.x, requestID: .string("r")), at: at(3))
                == [.cancel(.flag), .storeResult(Outcome(winner: .o, reason: .resignation), rated: true)])
        let changes: [Side: RatingChange] = [
            .x: .init(before: 1500, after: 1480), .o: .init(before: 1600, after: 1617),
        ]
        #expect(
            lines(machine.handle(.resultStored(changes), at: at(3.1))) == [
                #"1 {"game":7,"id":"r","outcome":{"reason":"resign","winner":"o"},"rating":{"after":1480,"before":1500},"type":"end"}"#,
                #"2 {"game":7,"outcome":{"reason":"resign","winner":"o"},"rating":{"after":1617,"before":1600},"type":"end"}"#,
            ])
        #expect(machine.phase == .over && machine.outboxes.isEmpty)
        #expect(machine.handle(.resign(.o, requestID: nil), at: at(4)) == [.reject(over)])
    }

    /// Resigning (or leaving, or flagging) before both sides have made two moves rates nothing;
    /// aborting, or a game against the engine, never does.
    @Test(
        arguments: [
            (3, true, GameMachine.Event.resign(.x, requestID: nil), false),
            (4, true, .resign(.x, requestID: nil), true),
            (4, false, .resign(.x, requestID: nil), false),
            (3, true, .timerFired(.flag), false),
            (4, true, .timerFired(.flag), true),
            (1, true, .timerFired(.abort), false),
        ])
    func whatIsRated(played: Int, isRated: Bool, ending: GameMachine.Event, rated: Bool) {
        var machine = begun(played: played, isRated: isRated)
        guard case .storeResult(_, let asked)? = machine.handle(ending, at: at(300)).last else {
            Issue.record("no result stored")
            return
        }
        #expect(asked == rated)
    }

    /// The move being stored was read first: it counts, then the resignation that came
    /// meanwhile (the first of them), answered with the end.
    @Test func aResignationWhileAMoveIsStoredComesAfterIt() {
        var machine = begun(played: 4)
        _ = storing(&machine, "b5", by: .x, at: 5)
        #expect(machine.handle(.resign(.o, requestID: .integer(8)), at: at(6)) == [])
        #expect(machine.handle(.resign(.x, requestID: .integer(9)), at: at(6)) == [])
        let announced = machine.handle(.moveStored, at: at(7))
        #expect(announced.count == 4)
        #expect(
            announced.suffix(2) == [
                .cancel(.flag), .storeResult(Outcome(winner: .x, reason: .resignation), rated: true),
            ])
        #expect(machine.moves.count == 5)
        #expect(lines(machine.handle(.resultStored([:]), at: at(8))).last?.contains(#""id":8"#) == true)
    }

    @Test func aResignationWhileAMoveFailsToBeStoredEndsTheGame() {
        var machine = begun(played: 4)
        _ = storing(&machine, "b5", by: .x, at: 5)
        _ = machine.handle(.resign(.x, requestID: nil), at: at(6))
        #expect(
            machine.handle(.moveStoreFailed(refused: false), at: at(7))
                == [
                    .cancel(.flag), .storeResult(Outcome(winner: .o, reason: .resignation), rated: true),
                    .reject(over),
                ])
        #expect(machine.moves.count == 4)
    }

    /// A player whose grace period ends while their move is stored: the move counts, then they lose.
    @Test func anAbandonmentWhileAMoveIsStoredComesAfterIt() {
        var machine = begun(played: 4)
        _ = storing(&machine, "b5", by: .x, at: 5)
        _ = machine.handle(.left(.o, oBox), at: at(6))
        #expect(machine.handle(.timerFired(.absence(.o)), at: at(66)) == [])
        let announced = machine.handle(.moveStored, at: at(67))
        #expect(announced.last == .storeResult(Outcome(winner: .x, reason: .abandonment), rated: true))
    }

    // MARK: Storing the result

    /// Nothing is announced until the result is stored: it is tried again, backing off, and
    /// the players hear it is late at the eighth failure.
    @Test func aResultNotStoredIsTriedAgain() {
        var machine = begun(played: 4)
        let resigned = GameMachine.Action.storeResult(Outcome(winner: .o, reason: .resignation), rated: true)
        _ = machine.handle(.resign(.x, requestID: nil), at: at(1))
        var time = 1.0
        for (attempt, wait) in [1, 2, 4, 8, 16, 32, 64, 64, 64].enumerated() {
            let failed = machine.handle(.resultStoreFailed(refused: false), at: at(time))
            #expect(failed.last == .arm(.finishRetry, at: at(time + Double(wait))))
            if attempt == 7 {
                #expect(
                    failed.first == .logError("game 7: the result is still not stored; trying every minute"))
                #expect(
                    lines(failed)
                        == [1, 2].map {
                            #"\#($0) {"code":"internal_error","message":"game 7's result is not stored yet; it is tried again every minute","type":"error"}"#
                        })
            } else {
                #expect(failed.count == 1)
            }
            time += Double(wait)
            #expect(machine.handle(.timerFired(.finishRetry), at: at(time)) == [resigned])
        }
        #expect(machine.handle(.resultStored([:]), at: at(time)).last == .ended)
    }

    /// A player back while the result is stored gets the end; a watcher may still come.
    @Test func whileTheResultIsStored() {
        var machine = begun(played: 4)
        _ = machine.handle(.left(.x, xBox), at: at(1))
        _ = machine.handle(.resign(.o, requestID: nil), at: at(2))
        #expect(machine.handle(.rejoin(.x, xAgain), at: at(3)) == [])
        #expect(machine.handle(.watch(watcher, requestID: nil), at: at(3)).count == 1)
        let ended = machine.handle(.resultStored([:]), at: at(4))
        #expect(ended.map(\.destination) == [[4], [2], [3], []])
        #expect(
            machine.handle(.watch(watcher, requestID: .integer(2)), at: at(5)) == [
                .reject(ProtocolError(.noSuchGame, "no game 7 is in progress"))
            ])
    }

    // MARK: Halting and handing over

    @Test func aHaltedGameStopsItsTimersAndRefusesEverything() {
        var machine = begun()
        _ = machine.handle(.left(.o, oBox), at: at(1))
        #expect(machine.handle(.halt, at: at(2)) == [.cancel(.flag), .cancel(.abort), .cancel(.absence(.o))])
        #expect(machine.phase == .halted(unfinished: nil) && machine.armed.isEmpty)
        #expect(storing(&machine, "b6", by: .x, at: 3) == [.reject(over)])
        #expect(machine.handle(.resign(.x, requestID: nil), at: at(3)) == [.reject(over)])
        #expect(
            machine.handle(.watch(watcher, requestID: nil), at: at(3)) == [
                .reject(ProtocolError(.noSuchGame, "no game 7 is in progress"))
            ])
        #expect(machine.handle(.rejoin(.o, oBox), at: at(3)) == [])
    }

    @Test func aMoveStoredAfterTheHaltIsNotAnnounced() {
        var machine = begun()
        _ = storing(&machine, "b6", by: .x, at: 1)
        _ = machine.handle(.halt, at: at(2))
        #expect(machine.handle(.moveStored, at: at(3)) == [.reject(over)])
        #expect(machine.moves.isEmpty)
    }

    /// A result not stored as the server halts is not tried again.
    @Test func aHaltStopsTryingToStoreTheResult() {
        var machine = begun(played: 4)
        _ = machine.handle(.resign(.x, requestID: nil), at: at(1))
        _ = machine.handle(.resultStoreFailed(refused: false), at: at(2))
        #expect(machine.handle(.halt, at: at(2.5)) == [.cancel(.finishRetry)])
        #expect(machine.handle(.resultStoreFailed(refused: true), at: at(3)) == [])
    }

    /// The watchers and a resignation that came while a move was stored go to the lobby.
    @Test func aGameHandedOverWhileAMoveIsStoredLeavesItsResignation() {
        var machine = begun()
        _ = machine.handle(.watch(watcher, requestID: nil), at: at(0))
        _ = storing(&machine, "b6", by: .x, at: 1)
        _ = machine.handle(.resign(.o, requestID: .integer(9)), at: at(2))
        let handedOver = Game.HandedOver(
            watchers: [watcher], resignation: Game.Resignation(side: .o, requestID: .integer(9)))
        #expect(
            machine.handle(.handOver, at: at(3)) == [
                .cancel(.flag), .cancel(.abort), .handedOver(handedOver),
            ])
        #expect(machine.phase == .handedOver && machine.outboxes.isEmpty && machine.watchers.isEmpty)
        #expect(machine.handle(.moveStored, at: at(4)) == [.reject(over)])
    }

    /// A resignation storage refused (the game is another node's now) goes to its new host.
    @Test func aGameHandedOverLeavesTheResignationNotStored() {
        var machine = begun(played: 4)
        _ = machine.handle(.resign(.x, requestID: .string("r")), at: at(1))
        #expect(
            machine.handle(.resultStoreFailed(refused: true), at: at(2)) == [
                .refused, .arm(.finishRetry, at: at(3)),
            ])
        let handedOver = Game.HandedOver(
            watchers: [], resignation: Game.Resignation(side: .x, requestID: .string("r")))
        #expect(machine.handle(.handOver, at: at(2.5)) == [.cancel(.finishRetry), .handedOver(handedOver)])
    }

    /// A resignation being stored for the first time is not handed over: it may yet be stored.
    @Test func aResignationNotFailedYetStaysHere() {
        var machine = begun(played: 4)
        _ = machine.handle(.resign(.x, requestID: nil), at: at(1))
        #expect(
            machine.handle(.handOver, at: at(2)) == [
                .handedOver(Game.HandedOver(watchers: [], resignation: nil))
            ])
        #expect(machine.handle(.resultStored([:]), at: at(3)) == [.ended])
    }

    // MARK: Watching

    @Test func aWatcherGetsTheGameThenEachMoveUntilTheyStop() {
        var machine = begun(played: 1)
        #expect(
            lines(machine.handle(.watch(watcher, requestID: .integer(5)), at: at(2))) == [
                #"3 {"clock":{"o":298000,"x":300000},"fen":"x5o/1x5/7/7/7/7/o5x o 0 1","game":7,"id":5,"increment":2,"initial":300,"moves":["b6"],"o":{"name":"bob","rating":1600},"type":"game","x":{"name":"ann","rating":1500}}"#
            ])
        _ = storing(&machine, "f6", by: .o, at: 3)
        #expect(machine.handle(.moveStored, at: at(4)).map(\.destination) == [[], [2], [1], [3]])
        _ = machine.handle(.unwatch(watcher), at: at(5))
        _ = storing(&machine, "f2", by: .x, at: 6)
        #expect(machine.handle(.moveStored, at: at(7)).map(\.destination) == [[1], [2]])
    }
}

extension GameMachine.Action {
    /// The connections a send goes to (none for any other action).
    fileprivate var destination: [Int] {
        switch self {
        case .send(_, let outbox, _): [outbox.id]
        case .sendWatched(_, let outboxes): outboxes.map(\.id)
        default: []
        }
    }
}

// MARK: Draw offers

extension GameMachineTests {
    /// An offer goes to the opponent (its sender hears `draw_offered` with the request's id);
    /// the opponent's `draw` accepts it: the game ends drawn by agreement, rated, their `end`
    /// carrying that request's id.
    @Test func aDrawOfferedAndAcceptedEndsTheGameDrawn() {
        var machine = begun(played: 4)
        #expect(
            lines(machine.handle(.offer(.draw, by: .x, requestID: .string("d")), at: at(3))) == [
                #"1 {"game":7,"id":"d","type":"draw_offered"}"#, #"2 {"game":7,"type":"draw_offer"}"#,
            ])
        #expect(
            machine.handle(.offer(.draw, by: .o, requestID: .integer(5)), at: at(4))
                == [.cancel(.flag), .storeResult(Outcome(winner: nil, reason: .agreement), rated: true)])
        let changes: [Side: RatingChange] = [
            .x: .init(before: 1500, after: 1504), .o: .init(before: 1600, after: 1596),
        ]
        #expect(
            lines(machine.handle(.resultStored(changes), at: at(4.1))) == [
                #"1 {"game":7,"outcome":{"reason":"agreement","winner":null},"rating":{"after":1504,"before":1500},"type":"end"}"#,
                #"2 {"game":7,"id":5,"outcome":{"reason":"agreement","winner":null},"rating":{"after":1596,"before":1600},"type":"end"}"#,
            ])
    }

    /// A draw agreed before each side made two moves rates nothing, like a resignation then.
    @Test(arguments: [(3, false), (4, true)]) func anEarlyDrawIsNotRated(played: Int, rated: Bool) {
        var machine = begun(played: played)
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
        #expect(
            machine.handle(.offer(.draw, by: .o, requestID: nil), at: at(2)).last
                == .storeResult(Outcome(winner: nil, reason: .agreement), rated: rated))
    }

    /// Declined, both players hear it, and nothing stands to accept; a decline with no offer,
    /// or of one's own offer, is refused and changes nothing.
    @Test func aDeclinedOfferIsToldToBoth() {
        var machine = begun(played: 4)
        let nothing = ProtocolError(.badRequest, "no draw offer to decline")
        #expect(machine.handle(.decline(.draw, by: .o, requestID: nil), at: at(1)) == [.reject(nothing)])
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
        #expect(machine.handle(.decline(.draw, by: .x, requestID: nil), at: at(2)) == [.reject(nothing)])
        #expect(
            lines(machine.handle(.decline(.draw, by: .o, requestID: .string("no")), at: at(3))) == [
                #"2 {"game":7,"id":"no","type":"draw_declined"}"#, #"1 {"game":7,"type":"draw_declined"}"#,
            ])
        #expect(machine.standingOffer == nil && machine.isLive)
        #expect(machine.handle(.decline(.draw, by: .o, requestID: nil), at: at(4)) == [.reject(nothing)])
    }

    /// An offer lapses when the player offered moves (not when the one who offered does); then
    /// the other's `draw` is an offer of their own, not an acceptance.
    @Test func anOfferLapsesWhenThePlayerOfferedMoves() {
        var machine = begun(played: 4)
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
        _ = storing(&machine, "c6", by: .x, at: 2)
        _ = machine.handle(.moveStored, at: at(2.1))
        #expect(machine.standingOffer?.by == .x)
        _ = storing(&machine, "e6", by: .o, at: 3)
        _ = machine.handle(.moveStored, at: at(3.1))
        #expect(machine.standingOffer == nil)
        #expect(
            lines(machine.handle(.offer(.draw, by: .o, requestID: nil), at: at(4))) == [
                #"2 {"game":7,"type":"draw_offered"}"#, #"1 {"game":7,"type":"draw_offer"}"#,
            ])
    }

    /// One offer at a time, then 10 moves of one's own before the next: an offer on every ply
    /// is refused (rate limited) and reaches nobody.
    @Test func offersAreTenMovesApart() {
        var machine = begun(played: 4)
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
        #expect(
            machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
                == [.reject(ProtocolError(.badRequest, "your draw offer stands"))])
        _ = machine.handle(.decline(.draw, by: .o, requestID: nil), at: at(2))
        var position = machine.position
        // x moves at plies 0, 2, 4…: their tenth move since the offer is ply 18.
        for ply in 0..<19 {
            let left = 10 - (ply + 1) / 2
            #expect(
                machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(3)) == [
                    .reject(
                        ProtocolError(
                            .rateLimited,
                            "you may offer a draw again after \(left) more move\(left == 1 ? "" : "s") of yours"
                        ))
                ])
            // The move that turns the fewest pieces, so that the game goes on.
            let next = position.legalMoves().min {
                position.captures(by: $0).count < position.captures(by: $1).count
            }!
            _ = storing(&machine, next.description, by: position.sideToMove, at: 4)
            _ = machine.handle(.moveStored, at: at(4))
            position = try! position.play(next)
            #expect(machine.isLive)
        }
        #expect(lines(machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(5))).count == 2)
    }

    /// A player who comes back is told of the offer that stands for them, after the game.
    @Test func aPlayerBackHearsTheOfferThatStands() {
        var machine = begun(played: 4)
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
        _ = machine.handle(.left(.o, oBox), at: at(2))
        let back = lines(machine.handle(.rejoin(.o, oBox), at: at(3)))
        #expect(back.count == 2 && back[0].contains(#""type":"game""#))
        #expect(back.last == #"2 {"game":7,"type":"draw_offer"}"#)
    }

    /// An offer while a move is stored is refused; after the end, every offer is.
    @Test func anOfferWhileAMoveIsStoredOrAfterTheEndIsRefused() {
        var machine = begun(played: 4)
        _ = storing(&machine, "c6", by: .x, at: 1)
        #expect(
            machine.handle(.offer(.draw, by: .o, requestID: nil), at: at(1))
                == [
                    .reject(
                        ProtocolError(.badRequest, "a move is being stored; offer again once it is played"))
                ])
        _ = machine.handle(.moveStored, at: at(1.1))
        _ = machine.handle(.resign(.o, requestID: nil), at: at(2))
        #expect(machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(3)) == [.reject(over)])
        #expect(machine.handle(.decline(.draw, by: .x, requestID: nil), at: at(3)) == [.reject(over)])
    }
}

// MARK: Takebacks

extension GameMachineTests {
    /// In a casual game x asks to take back their move after o replied: o accepts; once storage
    /// let the two plies go, both get the game from before x's move (the accepter's copy with
    /// its id), x to move, the clocks as they were.
    @Test func aTakebackAgreedTakesBackTheMoveAndTheReply() {
        var machine = casualAfterTwoMoreMoves()
        #expect(
            lines(machine.handle(.offer(.takeback, by: .x, requestID: .string("t")), at: at(21))) == [
                #"1 {"game":7,"id":"t","type":"takeback_offered"}"#, #"2 {"game":7,"type":"takeback_offer"}"#,
            ])
        #expect(
            machine.handle(.offer(.takeback, by: .o, requestID: .integer(9)), at: at(22))
                == [.cancel(.flag), .removeMoves(after: 4)])
        #expect(
            machine.handle(.move("c6", by: .x, requestID: nil, readAt: nil), at: at(22)) == [
                .reject(GameMachine.takingBackNow)
            ])
        let back = lines(machine.handle(.movesRemoved, at: at(23)))
        #expect(back.count == 2)
        #expect(
            back[0].hasPrefix(#"1 {"clock":{"o":"#) && back[0].contains(#""moves":["b6","f6","f2","b2"]"#))
        #expect(back[1].hasPrefix(#"2 {"clock":{"o":"#) && back[1].contains(#""id":9"#))
        #expect(back.allSatisfy { $0.contains(#""rated":false,"type":"game""#) })
        #expect(machine.moves.count == 4 && machine.position.sideToMove == .x && machine.phase == .playing)
        // Nothing given back: x used 10 s for c6 and 2 s before the takeback, o 10 s for e6 (each
        // move +2 s); no clock ran while it was stored.
        #expect(machine.clock.reading(at: at(23)) == Clocks(x: 290_000, o: 292_000))
    }

    /// Offers made before a takeback count from where it took the game back to: asking again at
    /// once (a takeback, or a draw offered before it) is refused as too soon, and the game, which
    /// had counted its moves from a ply no longer there, does not trap.
    @Test func offersAfterATakebackCountFromTheMovesLeft() {
        var machine = casualAfterTwoMoreMoves()
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(21))
        _ = machine.handle(.decline(.draw, by: .o, requestID: nil), at: at(21))
        _ = machine.handle(.offer(.takeback, by: .x, requestID: nil), at: at(22))
        _ = machine.handle(.offer(.takeback, by: .o, requestID: nil), at: at(22))
        _ = machine.handle(.movesRemoved, at: at(23))
        #expect(machine.moves.count == 4)
        for offer in [Offer.takeback, .draw] {
            #expect(
                machine.handle(.offer(offer, by: .x, requestID: nil), at: at(24)) == [
                    .reject(
                        ProtocolError(
                            .rateLimited,
                            "you may offer a \(offer.rawValue) again after 10 more moves of yours"))
                ])
        }
    }

    /// A side with no move of its own may accept a takeback, not ask for one because some other
    /// offer of the opponent's stands: o asking while x's draw offer stands is refused, and x's
    /// takeback then is x's own offer, not an agreement to take back two plies of the one played.
    @Test func aStandingDrawOfferLetsNoOneAskForATakebackWithoutAMove() {
        var machine = begun(played: 1, isRated: false)
        _ = machine.handle(.offer(.draw, by: .x, requestID: nil), at: at(1))
        #expect(
            machine.handle(.offer(.takeback, by: .o, requestID: nil), at: at(2))
                == [.reject(ProtocolError(.badRequest, "you have no move to take back"))])
        #expect(
            lines(machine.handle(.offer(.takeback, by: .x, requestID: nil), at: at(3))) == [
                #"1 {"game":7,"type":"takeback_offered"}"#, #"2 {"game":7,"type":"takeback_offer"}"#,
            ])
        // Storage's answer to a takeback agreed before would have had it take two plies of one.
        #expect(machine.handle(.movesRemoved, at: at(4)).isEmpty)
        #expect(machine.moves.count == 1 && machine.phase == .playing)
    }

    /// Never in a rated game; not before one's first move; refused storage leaves the game.
    @Test func takebacksAreRefusedWhereTheyDoNotBelong() {
        var rated = begun(played: 4)
        #expect(
            rated.handle(.offer(.takeback, by: .x, requestID: nil), at: at(1))
                == [.reject(ProtocolError(.badRequest, "takebacks are for casual games"))])
        var fresh = begun(played: 0, isRated: false)
        #expect(
            fresh.handle(.offer(.takeback, by: .x, requestID: nil), at: at(1))
                == [.reject(ProtocolError(.badRequest, "you have no move to take back"))])
        var casual = begun(played: 4, isRated: false)
        _ = casual.handle(.offer(.takeback, by: .o, requestID: nil), at: at(1))
        _ = casual.handle(.offer(.takeback, by: .x, requestID: nil), at: at(2))
        let failed = casual.handle(.moveRemovalFailed, at: at(3))
        #expect(
            failed.last
                == .reject(
                    ProtocolError(
                        .internalError, "the takeback could not be stored; the game goes on as it was")))
        #expect(casual.moves.count == 4 && casual.phase == .playing)
    }

    /// After a restart, x (back alone) asks for a takeback and goes; o comes back and accepts
    /// while x is away; x comes back while the takeback is stored. The game still waits for
    /// storage, no clock running, and takes the moves back once they are gone from it.
    @Test func aPlayerBackWhileATakebackIsStoredLetsItFinish() {
        var machine = game(played: 4, outboxes: [:], isRated: false)
        _ = machine.handle(.resume, at: at(0))
        _ = machine.handle(.rejoin(.x, xBox), at: at(1))
        _ = machine.handle(.offer(.takeback, by: .x, requestID: nil), at: at(2))
        _ = machine.handle(.left(.x, xBox), at: at(3))
        _ = machine.handle(.rejoin(.o, oBox), at: at(4))
        let agreed = machine.handle(.offer(.takeback, by: .o, requestID: nil), at: at(5))
        #expect(agreed == [.removeMoves(after: 2)])
        _ = machine.handle(.rejoin(.x, xAgain), at: at(6))
        guard case .takingBack = machine.phase else {
            Issue.record("not taking back: \(machine.phase)")
            return
        }
        #expect(machine.clock.running == nil)
        _ = machine.handle(.movesRemoved, at: at(7))
        #expect(machine.moves == [move("b6"), move("f6")])
        #expect(machine.phase == .playing && machine.clock.running == .x)
        #expect(machine.armed[.flag] == at(307))
    }
}
