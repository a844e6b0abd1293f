/// One move's round trip, and when it was sent: seconds after the run began.
public struct MoveSample: Hashable, Sendable {
    public var sentAt: Double
    public var microseconds: UInt32

    public init(sentAt: Double, microseconds: UInt32) {
        self.sentAt = sentAt
        self.microseconds = microseconds
    }
}

extension LatencySummary {
    /// The summary of the moves sent at `moment` or later (seconds after the run began): with
    /// `moment` the start of the run's last game, the round trips once every game was going,
    /// without the logins and seeks of the start.
    public init(movesSentFrom moment: Double, of samples: [MoveSample]) {
        self.init(microseconds: samples.lazy.filter { $0.sentAt >= moment }.map(\.microseconds))
    }
}
