/// A match's time control: a starting time and an increment per move, the same for both sides.
public struct MatchTimeControl: Hashable, Sendable {
    public var base: Duration
    public var increment: Duration

    public init(base: Duration, increment: Duration) {
        self.base = base
        self.increment = increment
    }

    /// Reads 'SECONDS+INCREMENT' (like '10+0.1') or 'SECONDS'; `nil` when malformed or out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let seconds = Double(parts[0]), seconds > 0, seconds <= 86_400
        else { return nil }
        let increment = parts.count == 2 ? Double(parts[1]) : 0
        guard let increment, increment >= 0, increment <= 3600 else { return nil }
        base = .milliseconds(Int64(seconds * 1000))
        self.increment = .milliseconds(Int64(increment * 1000))
    }
}
