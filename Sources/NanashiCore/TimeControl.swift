/// A time control: time on each clock at the start, and time added after each move (Fischer).
///
/// A server's games have whole seconds (`initial` and `increment`, as on the wire); a match
/// between engines may have less (`10+0.1` seconds), so the time is held in milliseconds.
public struct TimeControl: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds on each clock at the start.
    public var initialMilliseconds: Int64
    /// Milliseconds added to the mover's clock after each move.
    public var incrementMilliseconds: Int64

    /// Whole seconds on each clock at the start and added after each move.
    public init(initial: Int = 300, increment: Int = 3) {
        self.init(initialMilliseconds: Int64(initial) * 1000, incrementMilliseconds: Int64(increment) * 1000)
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
        set { initialMilliseconds = Int64(newValue) * 1000 }
    }

    /// Seconds added after each move, rounded down.
    public var increment: Int {
        get { Int(incrementMilliseconds / 1000) }
        set { incrementMilliseconds = Int64(newValue) * 1000 }
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
