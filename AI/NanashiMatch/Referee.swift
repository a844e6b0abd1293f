import NanashiAI
import NanashiCore

/// Plays one game between two players by the rules, with its own clock when there is a time
/// control: a player whose clock runs out loses, and so does one that plays an illegal move.
public struct Referee {
    let x: any Player
    let o: any Player
    let limits: SearchLimits
    let timeControl: MatchTimeControl?
    let maxPlies: Int
    /// The clock the referee reads (the real one, except in tests).
    let now: () -> ContinuousClock.Instant

    public init(
        x: any Player, o: any Player, limits: SearchLimits, timeControl: MatchTimeControl?, maxPlies: Int,
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
        var clocks = [Side.x: timeControl?.base ?? .zero, Side.o: timeControl?.base ?? .zero]
        while moves.count < maxPlies {
            if let outcome = position.outcome {
                let result: GameResult = outcome.winner.map { $0 == .x ? .xWins : .oWins } ?? .draw
                return PlayedGame(
                    start: start, moves: moves, result: result, termination: outcome.reason.rawValue)
            }
            let side = position.sideToMove
            var moveLimits = limits
            if let timeControl {
                moveLimits.clock = SearchLimits.Clock(
                    own: clocks[side]!, opponent: clocks[side.opponent]!, ownIncrement: timeControl.increment,
                    opponentIncrement: timeControl.increment)
            }
            let player = side == .x ? x : o
            let started = now()
            let move = try player.move(start: start, moves: moves, position: position, limits: moveLimits)
            let elapsed = now() - started
            if let timeControl {
                clocks[side]! -= elapsed
                if clocks[side]! < .zero {
                    return PlayedGame(
                        start: start, moves: moves, result: .loss(of: side), termination: "time forfeit")
                }
                clocks[side]! += timeControl.increment
            }
            guard let next = try? position.play(move) else {
                return PlayedGame(
                    start: start, moves: moves, result: .loss(of: side), termination: "illegal move \(move)")
            }
            position = next
            moves.append(move)
        }
        return PlayedGame(
            start: start, moves: moves, result: .draw, termination: "adjudicated at \(maxPlies) plies")
    }
}
