import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import NanashiTransport
import Testing

@testable import NanashiServer

// Many games told long random sequences of everything a game can be told, in any phase: moves
// legal, illegal, out of turn and repeated; storage answers in any order, and ones nothing waits
// for; timers early, late and twice; offers, declines, resignations, players leaving and coming
// back, watchers, halts and hand-overs. After each event the game must not trap, and what must
// always hold of it holds. Seeded, with no real time: a failure names the seed that replays it.

/// The instant the games count from.
private let origin = ContinuousClock.now

private let fuzzPlayers: [Side: Game.Player] = [
    .x: .init(id: 10, name: "ann", rating: 1500), .o: .init(id: 11, name: "bob", rating: 1600),
]

/// Texts that are no legal move anywhere, or only by chance.
private let garbage = [
    "", "zz9", "h9", "a1a1", "0000", "b6b6", "g7a1", "a7", "A7", " b6", "b6 ", "a1c3c5", "\u{1F600}",
    String(repeating: "b6", count: 200),
]

/// A request the game asked storage for and has not heard back about.
private enum Asked: Hashable {
    case move(ply: Int, Move)
    case removal(after: Int)
    case result
}

/// One game and what the test knows of it from the outside: the timers its actions armed, the
/// stores it asked for, and whether it has ended.
private struct FuzzedGame {
    let seed: UInt64
    var random: SeededGenerator
    var machine: GameMachine
    var now: ContinuousClock.Instant
    /// The timers as the actions armed and cancelled them (and as they fired).
    var armed: [GameMachine.Timer: ContinuousClock.Instant] = [:]
    var asked: [Asked] = []
    /// The moves storage holds, as the answers to the stores asked for say.
    var stored: [Move]
    /// An `ended` or `handedOver` was asked for: the game is let go.
    var letGo = false
    var nextOutboxID = 100
    var lastFired: GameMachine.Timer?
    /// `.begin` or `.resume`: what the lobby tells a game first, once (a game stored is resumed
    /// before anyone can reach it; a new one may hear from its players before it begins).
    let firstEvent: GameMachine.Event
    var begun = false
    /// A ply stored that does not follow the moves stored.
    var gap: Int?
    /// The last events, for the failure message.
    var trail: [GameMachine.Event] = []

    init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        now = origin
        let initial = Int.random(in: 1...600, using: &random)
        let control = TimeControl(initial: initial, increment: Int.random(in: 0...3, using: &random))
        // The game starts from the standard position or from a few random plies into it, with a
        // few random plies played already.
        let startPlies = Int.random(in: 0...3, using: &random)
        let start = Self.randomPlies(from: .start, startPlies, using: &random).position
        let (moves, position) = Self.randomPlies(
            from: start, Int.random(in: 0...4, using: &random), using: &random)
        let resumed = Bool.random(using: &random)
        var outboxes: [Side: Outbox] = [.x: Outbox(id: 1) { _ in }, .o: Outbox(id: 2) { _ in }]
        var clocks: Clocks?
        if resumed {
            outboxes = outboxes.filter { _ in Bool.random(using: &random) }
            clocks = Clocks(
                x: Int64.random(in: 0...control.initialMilliseconds, using: &random),
                o: Int64.random(in: 0...control.initialMilliseconds, using: &random))
        }
        stored = moves
        machine = GameMachine(
            id: 7, control: control, players: fuzzPlayers, isRated: Bool.random(using: &random), start: start,
            position: position, moves: moves, clocks: clocks, outboxes: outboxes,
            firstMoveLimit: .seconds(Int.random(in: 1...30, using: &random)),
            abandonGrace: .seconds(Int.random(in: 1...60, using: &random)), at: origin)
        // A game whose last move ended it is only ever resumed (and ends as it resumes).
        firstEvent = resumed || position.outcome != nil ? .resume : .begin
        self.random = random
    }

    private static func randomPlies(from start: Position, _ count: Int, using random: inout SeededGenerator)
        -> (moves: [Move], position: Position)
    {
        var position = start
        var moves: [Move] = []
        for _ in 0..<count where position.outcome == nil {
            let move = position.legalMoves().randomElement(using: &random)!
            position = try! position.play(move)
            moves.append(move)
        }
        return (moves, position)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func anySide() -> Side { Bool.random(using: &random) ? .x : .o }

    private mutating func requestID() -> RequestID? {
        chance(20) ? nil : .integer(Int64.random(in: 1...1000, using: &random))
    }

    private mutating func newOutbox() -> Outbox {
        nextOutboxID += 1
        return Outbox(id: nextOutboxID) { _ in }
    }

    /// Moves the clock on: not at all, by milliseconds, by seconds, or now and then past every
    /// deadline.
    private mutating func advance() {
        switch Int.random(in: 0..<1000, using: &random) {
        case 0..<300: break
        case 300..<850: now += .milliseconds(Int.random(in: 1...999, using: &random))
        case 850..<995: now += .seconds(Int.random(in: 1...10, using: &random))
        default: now += .seconds(Int.random(in: 60...600, using: &random))
        }
    }

    /// The next event, at an instant never before the last one's.
    mutating func nextEvent() -> GameMachine.Event {
        advance()
        if !begun, firstEvent == .resume || chance(75) {
            begun = true
            return firstEvent
        }
        switch Int.random(in: 0..<1000, using: &random) {
        case 0..<380: return move()
        case 380..<560: return storageAnswer()
        case 560..<650: return timer()
        case 650..<830: return offer()
        case 830..<860:
            let offer: Offer = chance(50) ? .draw : .takeback
            return .decline(offer, by: anySide(), requestID: requestID())
        case 860..<861: return .resign(anySide(), requestID: requestID())
        case 861..<868:
            let side = anySide()
            if let outbox = machine.outboxes[side] { return .left(side, outbox) }
            return .rejoin(side, newOutbox())
        case 868..<910:
            // Mostly a side away coming back.
            let away = Side.allCases.filter { machine.outboxes[$0] == nil }
            let side = chance(80) ? away.randomElement(using: &random) ?? anySide() : anySide()
            return .rejoin(side, chance(80) ? newOutbox() : machine.outboxes[side] ?? newOutbox())
        case 910..<920:
            // An old connection closing, or one that was never the player's.
            return .left(anySide(), Outbox(id: Int.random(in: 1...nextOutboxID, using: &random)) { _ in })
        case 920..<970:
            if let watcher = machine.watchers.values.randomElement(using: &random), chance(50) {
                return .unwatch(watcher)
            }
            return .watch(newOutbox(), requestID: requestID())
        case 970..<996: return .begin
        case 996: return .halt
        case 997: return .stop
        default: return .handOver
        }
    }

    /// An offer of either side, often the acceptance of the one that stands.
    private mutating func offer() -> GameMachine.Event {
        if let (offer, by) = machine.standingOffer, chance(30) {
            return .offer(offer, by: by.opponent, requestID: requestID())
        }
        return .offer(chance(50) ? .draw : .takeback, by: anySide(), requestID: requestID())
    }

    /// Mostly a legal move of the side to move; else garbage, a move out of turn, or one played
    /// already; read now or a little earlier.
    private mutating func move() -> GameMachine.Event {
        let toMove = machine.position.sideToMove
        let side = chance(85) ? toMove : toMove.opponent
        let text: String
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<75: text = machine.position.legalMoves().randomElement(using: &random)?.description ?? "0000"
        case 75..<88: text = garbage.randomElement(using: &random)!
        default: text = machine.moves.last?.description ?? "b6"
        }
        let readAt: ContinuousClock.Instant? =
            chance(50) ? nil : now - .milliseconds(Int.random(in: 0...3000, using: &random))
        return .move(text, by: side, requestID: requestID(), readAt: readAt)
    }

    /// The answer to a store asked for (any of them), stored or not; with none asked for, an
    /// answer nothing waits for.
    private mutating func storageAnswer() -> GameMachine.Event {
        let refused = chance(20)
        if let index = asked.indices.randomElement(using: &random) {
            let fails = chance(20)
            switch asked.remove(at: index) {
            case .move(let ply, let move):
                if fails { return .moveStoreFailed(refused: refused) }
                if ply == stored.count + 1 { stored.append(move) } else { gap = ply }
                return .moveStored
            case .removal(let after):
                if fails { return .moveRemovalFailed }
                stored = Array(stored.prefix(after))
                return .movesRemoved
            case .result:
                return fails
                    ? .resultStoreFailed(refused: refused)
                    : .resultStored([.x: RatingChange(before: 1500, after: 1510)])
            }
        }
        return [
            .moveStored, .moveStoreFailed(refused: refused), .movesRemoved, .moveRemovalFailed,
            .resultStored([:]), .resultStoreFailed(refused: refused),
        ].randomElement(using: &random)!
    }

    /// Mostly a timer armed, early, due or late; else one that woke already, or one not armed.
    private mutating func timer() -> GameMachine.Event {
        let timer: GameMachine.Timer
        if let (armedTimer, deadline) = armed.randomElement(using: &random), chance(80) {
            timer = armedTimer
            // Often early (if it is not due yet): a timer due ends most games.
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<15: now = max(now, deadline)
            case 15..<25: now = max(now, deadline + .milliseconds(Int.random(in: 1...5000, using: &random)))
            default: break
            }
        } else if let fired = lastFired, chance(50) {
            timer = fired
        } else {
            timer = [.flag, .abort, .absence(.x), .absence(.o), .finishRetry].randomElement(using: &random)!
        }
        lastFired = timer
        return .timerFired(timer)
    }

    /// Tells the game `event`; returns what broke, if anything.
    mutating func tell(_ event: GameMachine.Event) -> String? {
        trail = trail.suffix(15) + [event]
        let before = machine
        let wasLetGo = letGo
        let actions = machine.handle(event, at: now)
        // The game no longer counts on a timer that woke, whether it was armed or not.
        if case .timerFired(let timer) = event { armed[timer] = nil }
        for action in actions {
            switch action {
            case .arm(let timer, let deadline): armed[timer] = deadline
            case .cancel(let timer): armed[timer] = nil
            case .storeMove(let ply, let move, _): asked.append(.move(ply: ply, move))
            case .removeMoves(let after): asked.append(.removal(after: after))
            case .storeResult: asked.append(.result)
            case .ended, .handedOver: letGo = true
            default: break
            }
        }
        if let broken = brokenInvariant(before: before, event: event, actions: actions, wasLetGo: wasLetGo) {
            return "seed \(seed): after \(event) at \(now - origin): \(broken)\n  last events: \(trail)"
        }
        return nil
    }

    /// What must hold after every event, given the game before it.
    private func brokenInvariant(
        before: GameMachine, event: GameMachine.Event, actions: [GameMachine.Action], wasLetGo: Bool
    ) -> String? {
        guard let replayed = try? machine.moves.reduce(machine.start, { try $0.play($1) }),
            replayed == machine.position
        else { return "the position is not the start replayed through the moves" }
        if machine.isLive, let outcome = machine.position.outcome {
            return "the rules ended the game (\(outcome)) and it goes on"
        }
        if !before.isLive {
            if machine.isLive { return "an ended game is going on again: \(machine.phase)" }
            if machine.moves != before.moves { return "an ended game's moves changed" }
        }
        if machine.isRated, machine.moves.count < before.moves.count { return "a rated game took moves back" }
        if let gap { return "ply \(gap) stored after \(stored.count) moves" }
        if asked.isEmpty, machine.phase == .playing || machine.phase == .paused, machine.moves != stored {
            return "\(machine.moves.count) moves played, \(stored.count) stored"
        }
        for action in actions {
            switch action {
            case .storeMove(let ply, _, _) where ply != before.moves.count + 1:
                return "ply \(ply) stored after \(before.moves.count) moves"
            case .removeMoves(let after) where !(0..<before.moves.count).contains(after):
                return "moves after ply \(after) removed from \(before.moves.count)"
            case .storeStopClocks(let ply, _) where ply != machine.moves.count:
                return "the clocks stored at ply \(ply) after \(machine.moves.count) moves"
            case .storeResult(let outcome, let rated) where before.isLive:
                if let broken = brokenResult(outcome, rated: rated, before: before) { return broken }
            default: break
            }
        }
        if machine.armed != armed { return "armed \(machine.armed), but the actions armed \(armed)" }
        if let standing = machine.standingOffer, standing.offer == .takeback, machine.isRated {
            return "a takeback offer stands in a rated game"
        }
        return brokenClocks(before: before, event: event)
            ?? brokenAfterTheEnd(before: before, event: event, actions: actions, wasLetGo: wasLetGo)
    }

    /// A result the game comes to: rated only if the game is, never aborted after both
    /// first moves, lost on time only with no time left, and abandoned only by a side away.
    private func brokenResult(_ outcome: Outcome, rated: Bool, before: GameMachine) -> String? {
        let loser = outcome.winner?.opponent
        if rated, !machine.isRated || outcome.reason == .aborted { return "\(outcome) rated" }
        switch outcome.reason {
        case .aborted where machine.moves.count >= 2: return "aborted after \(machine.moves.count) moves"
        case .timeout where loser.map({ before.clock.reading(at: now)[$0] }) != 0:
            return "\(outcome) with time left: \(before.clock.reading(at: now))"
        case .abandonment where loser.map({ before.outboxes[$0] }) != .some(nil):
            return "\(outcome), and the loser is here"
        default: return nil
        }
    }

    /// A game let go, or no longer live, sends and stores nothing more: its players' requests are
    /// rejected.
    private func brokenAfterTheEnd(
        before: GameMachine, event: GameMachine.Event, actions: [GameMachine.Action], wasLetGo: Bool
    ) -> String? {
        let fromPlayersOrTimers: Bool
        switch event {
        case .move, .resign, .offer, .decline, .rejoin, .left, .watch, .unwatch, .timerFired:
            fromPlayersOrTimers = true
        default: fromPlayersOrTimers = false
        }
        let done: Bool
        switch before.phase {
        case .over, .halted, .handedOver: done = true
        default: done = wasLetGo
        }
        if done, fromPlayersOrTimers,
            let action = actions.first(where: { if case .reject = $0 { false } else { true } })
        {
            return "\(action) after the game was over"
        }
        if wasLetGo {
            for action in actions {
                switch action {
                case .reject, .cancel, .refused: continue
                // A result stored after the game was handed over: the lobby hears it ended.
                case .ended where before.phase == .handedOver: continue
                case .handedOver where event == .handOver: continue
                default: return "\(action) after the game was let go"
                }
            }
        }
        return nil
    }

    /// Neither clock is ever negative, and no side gains time but its increment when its move is
    /// stored; the side to move's clock runs while the game is played, and a flag is armed by
    /// the time it would run out.
    private func brokenClocks(before: GameMachine, event: GameMachine.Event) -> String? {
        let clock = machine.clock
        guard clock.atTurnStart.x >= 0, clock.atTurnStart.o >= 0 else {
            return "a clock is negative: \(clock)"
        }
        let reading = clock.reading(at: now)
        var bound = before.clock.reading(at: now)
        if case .storing(let stored) = before.phase {
            switch event {
            case .moveStored: bound = stored.clock.atTurnStart
            case .moveStoreFailed:
                bound = stored.clock.atTurnStart
                bound[stored.side] -= machine.control.incrementMilliseconds
            default: break
            }
        }
        for side in Side.allCases where reading[side] > bound[side] {
            return "\(side) gained time: \(reading[side]) ms left, at most \(bound[side]) expected"
        }
        switch machine.phase {
        case .playing where begun:
            guard clock.running == machine.position.sideToMove else {
                return "playing, and the clock running is \(String(describing: clock.running))"
            }
            let runsOut = clock.since + .milliseconds(clock.atTurnStart[machine.position.sideToMove])
            guard let wakes = machine.armed[.flag], wakes <= runsOut else {
                return "playing, and no flag armed by the time the clock runs out"
            }
        case .paused, .takingBack:
            if clock.running != nil { return "\(machine.phase), and a clock runs" }
        default: break
        }
        return nil
    }
}

@Suite struct GameMachineFuzzTests {
    /// A thousand games of up to 500 random events each, every one checked after each event; a
    /// game goes on for a while after its end, to see it only refuses. (A trap stops the run
    /// where the debug build says; each game is replayed alone by its seed.)
    @Test func randomEventsNeverTrapOrBreakTheGame() {
        var steps = 0
        for seed in UInt64(1)...1000 {
            var game = FuzzedGame(seed: seed)
            var afterTheEnd = 0
            for _ in 0..<500 where afterTheEnd < 20 {
                steps += 1
                if let broken = game.tell(game.nextEvent()) {
                    Issue.record(Comment(rawValue: broken))
                    break
                }
                if !game.machine.isLive { afterTheEnd += 1 }
            }
        }
        #expect(steps > 50_000)
    }
}
