/// Both clocks of a game under way, as a value: the time each side had when the current turn
/// began, which side's clock runs, and since when. Server, referee and client all read time the
/// same way from it; `Clocks` is what goes on the wire.
public struct GameClock: Hashable, Sendable {
    /// Milliseconds left to each side when the running clock started (or when both stopped).
    public private(set) var atTurnStart: Clocks
    /// The side whose time runs; `nil` when neither does (paused, or the game is over).
    public private(set) var running: Side?
    /// When `running`'s clock started.
    public private(set) var since: ContinuousClock.Instant

    public init(_ clocks: Clocks, running: Side?, since: ContinuousClock.Instant) {
        atTurnStart = clocks
        self.running = running
        self.since = since
    }

    /// Milliseconds left to `side` at `now`: negative once its time has run out. (Held at
    /// `Int64`'s bounds: the clocks a client is sent come from the wire.)
    public func left(_ side: Side, at now: ContinuousClock.Instant) -> Int64 {
        guard side == running else { return atTurnStart[side] }
        return Self.sum(atTurnStart[side], -(now - since).wholeMilliseconds)
    }

    /// Both clocks as they read at `now`, never below zero.
    public func reading(at now: ContinuousClock.Instant) -> Clocks {
        Clocks(x: max(0, left(.x, at: now)), o: max(0, left(.o, at: now)))
    }

    /// The running side ends its turn at `now`: its time used is charged, `increment`
    /// milliseconds are added, and the other side's clock starts.
    public mutating func press(at now: ContinuousClock.Instant, increment: Int64) {
        guard let mover = running else { return }
        atTurnStart[mover] = Self.sum(left(mover, at: now), increment)
        running = mover.opponent
        since = now
    }

    /// Starts `side`'s clock at `now` (both clocks stopped until then).
    public mutating func start(_ side: Side, at now: ContinuousClock.Instant) {
        atTurnStart = reading(at: now)
        running = side
        since = now
    }

    /// `mover` has moved at `now`: both clocks stop, keeping the time left, and `increment`
    /// milliseconds are added to the mover's. The server starts the other side's clock (`start`)
    /// only once the move is stored, so that storing it is charged to no one.
    public mutating func stop(afterMoveBy mover: Side, at now: ContinuousClock.Instant, increment: Int64) {
        stop(at: now)
        atTurnStart[mover] = Self.sum(atTurnStart[mover], increment)
    }

    /// Stops both clocks at `now`, keeping the time left.
    public mutating func stop(at now: ContinuousClock.Instant) {
        atTurnStart = reading(at: now)
        running = nil
        since = now
    }

    /// `a + b`, held at `Int64`'s bounds instead of overflowing.
    private static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (total, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return total }
        return b < 0 ? .min : .max
    }
}
