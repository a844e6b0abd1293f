/// A time control: time on each clock at the start, and time added after each move (Fischer).
///
/// A server's games have whole seconds (`initial` and `increment`, as on the wire); a match
/// between engines may have less (`10+0.1` seconds), so the time is held in milliseconds.
public struct TimeControl: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds on each clock at the start.
    public var initialMilliseconds: Int64
    /// Milliseconds added to the mover's clock after each move.
    public var incrementMilliseconds: Int64

    /// Whole seconds on each clock at the start and added after each move. Seconds too many (or
    /// too few) for milliseconds in 64 bits are held at the bounds, so that a number from the wire
    /// never traps; the server's own limits then refuse it.
    public init(initial: Int = 300, increment: Int = 3) {
        self.init(
            initialMilliseconds: Self.milliseconds(seconds: initial),
            incrementMilliseconds: Self.milliseconds(seconds: increment))
    }

    public init(initialMilliseconds: Int64, incrementMilliseconds: Int64) {
        self.initialMilliseconds = initialMilliseconds
        self.incrementMilliseconds = incrementMilliseconds
    }

    /// Five minutes plus three seconds a move, what a `seek` without fields asks for.
    public static let standard = TimeControl()

    /// Seconds on each clock at the start, rounded down.
    public var initial: Int {
        get { Int(initialMilliseconds / 1000) }
        set { initialMilliseconds = Self.milliseconds(seconds: newValue) }
    }

    /// Seconds added after each move, rounded down.
    public var increment: Int {
        get { Int(incrementMilliseconds / 1000) }
        set { incrementMilliseconds = Self.milliseconds(seconds: newValue) }
    }

    /// `seconds` in milliseconds, held at `Int64`'s bounds instead of overflowing.
    private static func milliseconds(seconds: Int) -> Int64 {
        let (product, overflow) = Int64(seconds).multipliedReportingOverflow(by: 1000)
        guard overflow else { return product }
        return seconds < 0 ? .min : .max
    }

    private enum CodingKeys: String, CodingKey { case initial, increment }

    /// Reads whole seconds, `initial` 300 and `increment` 3 when missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            initial: try container.decodeIfPresent(Int.self, forKey: .initial) ?? 300,
            increment: try container.decodeIfPresent(Int.self, forKey: .increment) ?? 3)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(initial, forKey: .initial)
        try container.encode(increment, forKey: .increment)
    }

    /// `5+3`: minutes, then the seconds added per move, as players write it (see
    /// `init(parsing:)`).
    public var description: String { notation }
}
