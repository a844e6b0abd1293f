/// A number given by a person (an option of a command) that is out of its range:
/// `bad depth 0: use 1 to 20`.
public struct RangeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the number is, as the person wrote it (`depth`, `--top`).
    public let name: String
    public let value: Int
    public let range: ClosedRange<Int>
    /// The unit written after the range (`ms`, `MB`), if any.
    public let unit: String?

    public var description: String {
        let allowed =
            range.upperBound == .max
            ? "\(range.lowerBound) or more" : "\(range.lowerBound) to \(range.upperBound)"
        return "bad \(name) \(value): use \(allowed)" + (unit.map { " " + $0 } ?? "")
    }
}

extension ClosedRange<Int> {
    /// Checks a number given by a person against this range.
    ///
    /// - Throws: `RangeError`, naming it `name`, when the range does not hold `value`.
    public func check(_ value: Int, _ name: String, unit: String? = nil) throws(RangeError) {
        guard contains(value) else { throw RangeError(name: name, value: value, range: self, unit: unit) }
    }
}
