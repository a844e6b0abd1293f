/// One move's round trip, and when it was sent: seconds after the run began.
public struct MoveSample: Hashable, Sendable {
    public var sentAt: Double
    public var microseconds: UInt32
}

extension LatencySummary {
    /// The summary of the moves sent at `moment` or later (seconds after the run began): with
    /// `moment` the start of the run's last game, the round trips once every game was going,
    /// without the logins and seeks of the start.
    public init(movesSentFrom moment: Double, of samples: [MoveSample]) {
        self.init(microseconds: samples.lazy.filter { $0.sentAt >= moment }.map(\.microseconds))
    }
}
