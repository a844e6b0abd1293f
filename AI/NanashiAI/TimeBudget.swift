/// How long a search may think, worked out from its limits.
///
/// `soft` is when not to start another iteration (one seldom finishes in less than the time all
/// earlier ones took); `hard` is when to abandon the iteration under way. On a clock the hard limit
/// never exceeds a third of the time left, so the engine never loses on time while a move takes less
/// than that.
struct TimeBudget {
    var soft: Duration?
    var hard: Duration?

    /// Time lost between the engine answering and its clock stopping (pipes, the runner, and the
    /// operating system giving the processor to others on a busy machine).
    static let overhead = Duration.milliseconds(50)

    init(limits: SearchLimits) {
        if let movetime = limits.movetime {
            let margin = min(movetime / 20, .milliseconds(20))
            hard = movetime - margin
            soft = hard
        }
        if let clock = limits.clock {
            let available = max(clock.own - Self.overhead, .milliseconds(1))
            let movesLeft = Double(min(clock.movesToGo ?? 30, 30))
            let base = available / movesLeft + clock.ownIncrement * 3 / 4
            let cap = available / 3
            let clockSoft = min(base * 0.6, cap)
            let clockHard = min(base * 3, cap)
            soft = soft.map { min($0, clockSoft) } ?? clockSoft
            hard = hard.map { min($0, clockHard) } ?? clockHard
        }
    }
}
