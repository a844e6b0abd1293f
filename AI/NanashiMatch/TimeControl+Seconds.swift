import NanashiCore

// A match between engines writes its time control in seconds, where players write minutes: both
// are the one `TimeControl`.

extension TimeControl {
    /// Reads a match's time control in seconds: `10+0.1` is ten seconds each and a tenth of a
    /// second added after every move; `10s+0.1s` says the same with units; `10` alone has no
    /// increment. `nil` when malformed, when the clock does not start with at least a millisecond
    /// and at most a day, or when the increment is over an hour.
    public init?(seconds text: String) {
        func seconds(_ part: Substring) -> Double? {
            Double(part.hasSuffix("s") ? part.dropLast() : part)
        }
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let initial = seconds(parts[0]), initial >= 0.001,
            initial <= 86_400
        else { return nil }
        let increment = parts.count == 2 ? seconds(parts[1]) : 0
        guard let increment, increment >= 0, increment <= 3600 else { return nil }
        self.init(
            initialMilliseconds: Int64(initial * 1000), incrementMilliseconds: Int64(increment * 1000))
    }

    /// `10+0.1`: seconds, as `init(seconds:)` reads them.
    public var secondsNotation: String {
        func seconds(_ milliseconds: Int64) -> String {
            let text = String(Double(milliseconds) / 1000)
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        return seconds(initialMilliseconds) + "+" + seconds(incrementMilliseconds)
    }
}
