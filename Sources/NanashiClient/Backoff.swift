/// How long to wait before each attempt to reconnect: doubling from `first` up to `maximum`,
/// so a server that is restarting is not hammered and one that is back is found quickly.
public struct Backoff: Hashable, Sendable {
    public var first: Duration
    public var maximum: Duration
    /// Attempts made since the last success.
    public private(set) var attempts = 0

    public init(first: Duration = .milliseconds(500), maximum: Duration = .seconds(10)) {
        self.first = first
        self.maximum = maximum
    }

    /// The wait before the next attempt: `first`, then twice as long each time, at most `maximum`.
    public mutating func next() -> Duration {
        var delay = first
        for _ in 0..<min(attempts, 30) where delay < maximum { delay *= 2 }
        attempts += 1
        return min(delay, maximum)
    }

    /// Starts again from `first` (after a successful connection).
    public mutating func reset() { attempts = 0 }
}
