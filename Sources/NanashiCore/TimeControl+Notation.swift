extension TimeControl {
    /// The initial clocks a server accepts, in seconds: fifteen seconds to three hours. Shorter
    /// clocks would flag before the first-move abort, a loss on time before anyone played.
    public static let initialRange = 15...10_800
    /// The largest increment a server accepts, in seconds.
    public static let maximumIncrement = 600

    /// Whether a server accepts this time control: the initial clock in `initialRange`, and the
    /// increment at most `maximumIncrement`.
    public var isWithinLimits: Bool {
        Self.initialRange.contains(initial) && (0...Self.maximumIncrement).contains(increment)
    }

    /// Reads a time control as players write it: `5+3` is five minutes each and three seconds
    /// added after every move; `5` alone has no increment; `0.5+1` is thirty seconds and one.
    public init(parsing text: String) throws(TimeControlParseError) {
        let parts = text.trimmingSpaces.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { throw .notATimeControl(text) }
        guard let minutes = Double(parts[0].trimmingSpaces), minutes.isFinite, minutes >= 0 else {
            throw .notATimeControl(text)
        }
        var increment = 0
        if parts.count == 2 {
            guard let seconds = Int(parts[1].trimmingSpaces) else { throw .notATimeControl(text) }
            increment = seconds
        }
        let initial = (minutes * 60).rounded()
        guard initial <= Double(Self.initialRange.upperBound), Self.initialRange.contains(Int(initial)) else {
            throw .initialOutOfRange(text)
        }
        guard (0...Self.maximumIncrement).contains(increment) else { throw .incrementOutOfRange(text) }
        self.init(initial: Int(initial), increment: increment)
    }

    /// `5+3`, minutes and seconds, as `init(parsing:)` reads it.
    var notation: String {
        let minutes =
            initial % 60 == 0 ? String(initial / 60) : String(Double(initial) / 60).trimmingTrailingZeros
        return "\(minutes)+\(increment)"
    }
}

/// Why a `--time` value is not a time control.
public enum TimeControlParseError: Error, Hashable, Sendable, CustomStringConvertible {
    case notATimeControl(String)
    case initialOutOfRange(String)
    case incrementOutOfRange(String)

    public var description: String {
        switch self {
        case .notATimeControl(let text):
            "bad time control '\(text)': write MINUTES+SECONDS, like 5+3 (five minutes, three seconds a move)"
        case .initialOutOfRange(let text):
            "bad time control '\(text)': the clock starts with 1 second to 180 minutes"
        case .incrementOutOfRange(let text):
            "bad time control '\(text)': the increment is 0 to \(TimeControl.maximumIncrement) seconds"
        }
    }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    package var trimmingSpaces: SubSequence {
        var text = self[...]
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension String {
    fileprivate var trimmingTrailingZeros: String {
        guard contains(".") else { return self }
        var text = self
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
