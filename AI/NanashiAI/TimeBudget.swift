/// How long a search may think, worked out from its limits.
///
/// `soft` is when not to start another iteration on a clock (one seldom finishes in less than the
/// time all earlier ones took); `hard` is when to abandon the iteration under way. On a clock
/// both are shares of the time left over the moves the game is expected to last by the empty
/// squares left (`movesLeft`): the clock is spent over the whole game, not mostly left over. A
/// movetime has no soft limit: time it leaves unspent is lost, and an iteration cut short still
/// gives the root move it found. On a clock the hard limit never exceeds a third of the time
/// left, so the engine never loses on time while a move takes less than that.
struct TimeBudget {
    var soft: Duration?
    var hard: Duration?
    /// Whether the soft limit stretches while the best move keeps changing and shrinks once it
    /// has settled (on a clock; a movetime is spent as asked).
    var followsStability = false

    /// Time lost between the engine answering and its clock stopping (pipes, the runner, and the
    /// operating system giving the processor to others on a busy machine).
    static let overhead = Duration.milliseconds(50)

    /// The moves the side to move has left, on average over self-play games on a clock, for the
    /// empty squares left: about 20 with the board nearly full (jumps go on around the last
    /// holes), one more for each empty square; 65 at the standard start.
    static func movesLeft(emptySquares: Int) -> Int {
        20 + emptySquares
    }

    /// The budget of a search with `limits` from a position with `emptySquares` empty squares.
    init(limits: SearchLimits, emptySquares: Int) {
        if let movetime = limits.movetime {
            let margin = min(movetime / 20, .milliseconds(20))
            hard = movetime - margin
        }
        if let clock = limits.clock {
            let available = max(clock.own - Self.overhead, .milliseconds(1))
            let expected = Self.movesLeft(emptySquares: emptySquares)
            let movesLeft = Double(min(clock.movesToGo ?? expected, expected))
            let base = available / movesLeft + clock.ownIncrement * 3 / 4
            let cap = available / 3
            let clockSoft = min(base * 1.2, cap)
            let clockHard = min(base * 3, cap)
            soft = clockSoft
            hard = hard.map { min($0, clockHard) } ?? clockHard
            followsStability = limits.movetime == nil
        }
    }

    /// The soft limit's share for each number of iterations in a row that ended on the same best
    /// move (0: it has just changed).
    static let stabilityFactors = [2.0, 1.4, 1.1, 0.9, 0.75]

    /// The soft limit's share for the part of the search's nodes that went to its best move:
    /// a move that took nearly all of them is clear, one that took few was a close call. 1.35 ×
    /// (1.5 − share), from 0.675 (all of them) to 2.025 (none).
    static func nodeShareFactor(_ share: Double) -> Double {
        (1.5 - min(max(share, 0), 1)) * 1.35
    }

    /// Whether a search that has thought for `elapsed`, its best move unchanged over the last
    /// `stableIterations` iterations and given `bestMoveNodeShare` of its nodes (nil: not counted),
    /// should start no further iteration: the next one seldom takes less than all the earlier ones.
    func stopsIterating(
        after elapsed: Duration, stableIterations: Int, bestMoveNodeShare: Double? = nil
    ) -> Bool {
        guard let soft else { return false }
        var factor = 1.0
        if followsStability {
            factor = Self.stabilityFactors[min(stableIterations, 4)]
            if let bestMoveNodeShare { factor *= Self.nodeShareFactor(bestMoveNodeShare) }
        }
        return elapsed >= soft * factor / 2
    }
}
