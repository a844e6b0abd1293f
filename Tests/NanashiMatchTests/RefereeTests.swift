import NanashiAI
import NanashiCore
import Testing

@testable import NanashiMatch

/// A clock that only moves when a player thinks.
final class FakeClock: @unchecked Sendable {
    var instant = ContinuousClock.now
}

/// A player that plays its first legal move after thinking a fixed time on the fake clock.
final class ScriptedPlayer: Player {
    let name: String
    let clock: FakeClock
    let thinking: Duration
    let answer: ((Position) -> Move)?
    var limitsSeen: [SearchLimits] = []

    init(name: String, clock: FakeClock, thinking: Duration, answer: ((Position) -> Move)? = nil) {
        self.name = name
        self.clock = clock
        self.thinking = thinking
        self.answer = answer
    }

    func newGame() {}

    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) -> Move {
        limitsSeen.append(limits)
        clock.instant += thinking
        return answer?(position) ?? position.legalMoves()[0]
    }

    func close() {}
}

struct RefereeTests {
    @Test func aPlayerWhoseClockRunsOutLosesOnTime() throws {
        let clock = FakeClock()
        // x spends 300 ms a move on 1 s + 0.1 s: 1000 - 300 + 100 = 800, then 600, 400, 200, and on
        // its fifth move 200 - 300 is below zero before the increment comes.
        let x = ScriptedPlayer(name: "slow", clock: clock, thinking: .milliseconds(300))
        let o = ScriptedPlayer(name: "fast", clock: clock, thinking: .milliseconds(10))
        let referee = Referee(
            x: x, o: o, limits: .infinite,
            timeControl: TimeControl(initialMilliseconds: 1000, incrementMilliseconds: 100), maxPlies: 400,
            now: { clock.instant })
        let game = try referee.play(from: .start)
        #expect(game.outcome == Outcome(winner: .o, reason: .timeout))
        #expect(game.ending == "timeout")
        #expect(game.moves.count == 8)
        // Each side is told its own clock and the other's, as they stood before the move.
        #expect(x.limitsSeen.map { $0.clock!.own } == [1000, 800, 600, 400, 200].map { .milliseconds($0) })
        #expect(o.limitsSeen.first?.clock?.opponent == .milliseconds(800))
    }

    @Test func withoutATimeControlNobodyLosesOnTime() throws {
        let clock = FakeClock()
        let x = ScriptedPlayer(name: "slow", clock: clock, thinking: .seconds(100))
        let o = ScriptedPlayer(name: "slow too", clock: clock, thinking: .seconds(100))
        let game = try Referee(
            x: x, o: o, limits: .depth(1), timeControl: nil, maxPlies: 6, now: { clock.instant }
        )
        .play(from: .start)
        #expect(game.outcome == Outcome(winner: nil, reason: .adjudication))
        #expect(game.ending == "adjudicated")
        #expect(game.moves.count == 6)
        #expect(x.limitsSeen.allSatisfy { $0 == .depth(1) })
    }

    @Test func anIllegalMoveLosesAndIsNotPlayed() throws {
        let clock = FakeClock()
        let x = ScriptedPlayer(name: "cheat", clock: clock, thinking: .zero) { _ in .clone(to: Square("d4")!)
        }
        let o = ScriptedPlayer(name: "honest", clock: clock, thinking: .zero)
        let game = try Referee(x: x, o: o, limits: .infinite, timeControl: nil, maxPlies: 400).play(
            from: .start)
        #expect(game.outcome == Outcome(winner: .o, reason: .illegalMove))
        #expect(game.ending == "illegal d4")
        #expect(game.moves.isEmpty)
    }

    /// Also when the deciding move is the last ply allowed: the rules' result, not a draw.
    @Test(arguments: [400, 1])
    func aGameEndsWithTheOutcomeOfTheRules(maxPlies: Int) throws {
        let clock = FakeClock()
        let x = ScriptedPlayer(name: "a", clock: clock, thinking: .zero) { _ in .clone(to: Square("a6")!) }
        let o = ScriptedPlayer(name: "b", clock: clock, thinking: .zero)
        let start = try Position(fen: "xo5/7/7/7/7/7/7 x 0 1")
        let game = try Referee(x: x, o: o, limits: .infinite, timeControl: nil, maxPlies: maxPlies).play(
            from: start)
        #expect(game.outcome == Outcome(winner: .x, reason: .noPieces))
        #expect(game.ending == "pieces")
        #expect(game.moves == [.clone(to: Square("a6")!)])
    }

    @Test func theGoCommandNamesXsClockBtime() {
        let clock = SearchLimits.Clock(
            own: .milliseconds(900), opponent: .milliseconds(800), ownIncrement: .milliseconds(10),
            opponentIncrement: .milliseconds(20))
        #expect(
            UAIPlayer.goCommand(limits: SearchLimits(clock: clock), sideToMove: .x)
                == "go wtime 800 btime 900 winc 20 binc 10")
        #expect(
            UAIPlayer.goCommand(limits: SearchLimits(clock: clock), sideToMove: .o)
                == "go wtime 900 btime 800 winc 10 binc 20")
        #expect(UAIPlayer.goCommand(limits: .infinite, sideToMove: .x) == "go movetime 1000")
        #expect(UAIPlayer.goCommand(limits: .nodes(5000), sideToMove: .o) == "go nodes 5000")
    }
}
