import NanashiAI
import NanashiCore

/// Plays one game between two players by the rules, with the one `GameClock` when there is a
/// time control: a player whose clock runs out loses, and so does one that plays an illegal move.
public struct Referee {
    let x: any Player
    let o: any Player
    let limits: SearchLimits
    let timeControl: TimeControl?
    let maxPlies: Int
    /// The clock the referee reads (the real one, except in tests).
    let now: () -> ContinuousClock.Instant

    public init(
        x: any Player, o: any Player, limits: SearchLimits, timeControl: TimeControl?, maxPlies: Int,
        now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.x = x
        self.o = o
        self.limits = limits
        self.timeControl = timeControl
        self.maxPlies = maxPlies
        self.now = now
    }

    /// Plays the game from `start` to its end, or to a draw by adjudication after `maxPlies` plies.
    public func play(from start: Position) throws -> PlayedGame {
        try x.newGame()
        try o.newGame()
        var position = start
        var moves: [Move] = []
        let initial = timeControl?.initialMilliseconds ?? 0
        // Stopped between moves: a side's clock runs only while it thinks.
        var clock = GameClock(Clocks(x: initial, o: initial), running: nil, since: now())
        while true {
            // The rules first: a game decided on its last allowed ply is decided, not adjudicated.
            if let outcome = position.outcome {
                return PlayedGame(start: start, moves: moves, outcome: outcome)
            }
            if moves.count >= maxPlies {
                return PlayedGame(
                    start: start, moves: moves, outcome: Outcome(winner: nil, reason: .adjudication))
            }
            let side = position.sideToMove
            var moveLimits = limits
            if let timeControl {
                let increment = Duration.milliseconds(timeControl.incrementMilliseconds)
                moveLimits.clock = SearchLimits.Clock(
                    own: .milliseconds(clock.atTurnStart[side]),
                    opponent: .milliseconds(clock.atTurnStart[side.opponent]), ownIncrement: increment,
                    opponentIncrement: increment)
            }
            let player = side == .x ? x : o
            clock.start(side, at: now())
            let move = try player.move(start: start, moves: moves, position: position, limits: moveLimits)
            let answered = now()
            if let timeControl {
                if clock.left(side, at: answered) < 0 {
                    return PlayedGame(
                        start: start, moves: moves, outcome: Outcome(winner: side.opponent, reason: .timeout))
                }
                clock.press(at: answered, increment: timeControl.incrementMilliseconds)
            }
            clock.stop(at: answered)
            guard let next = try? position.play(move) else {
                return PlayedGame(
                    start: start, moves: moves, outcome: Outcome(winner: side.opponent, reason: .illegalMove),
                    illegalMove: move)
            }
            position = next
            moves.append(move)
        }
    }
}
