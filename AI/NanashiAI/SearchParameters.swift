/// The search's tunable constants: margins, reductions and history weights, as numbers a tuner
/// (`nanashi tune --spsa`) can change and a file can carry (`nanashi uai --parameters`).
///
/// `standard` is what the engine plays with; every other value is for tuning and testing.
/// Fractions are kept in hundredths so that every parameter is a whole number.
public struct SearchParameters: Hashable, Sendable {
    /// The half-width of the first aspiration window around the last iteration's score.
    public var aspirationWindow = 36
    /// Reverse futility pruning's margin a ply of depth.
    public var reverseFutilityMargin = 78
    /// Futility pruning's margin at depth 0, and what each ply of depth adds to it.
    public var futilityBase = 63
    public var futilityMarginPerPly = 100
    /// Late move pruning keeps `base + factor × depth²` moves before it skips weak ones.
    public var lateMoveBase = 3
    public var lateMoveFactor = 2
    /// How far below the table's score a singular search looks, a ply of depth.
    public var singularMarginPerPly = 2
    /// Late move reductions: `base + ln(depth) × ln(move number) / divisor`, in hundredths. Ataxx
    /// has many moves a node and few good ones: a divisor of 1.3 against 2.4 gained 112 Elo at
    /// 200,000 nodes a move (1.1 and 1.6 did worse); SPSA then moved it to 1.21, and with the
    /// network 1bfae99fee02 to 1.16.
    public var reductionBase = 75
    public var reductionDivisor = 116
    /// A history score worth one ply less (or more) of reduction.
    public var historyPerReduction = 5_823
    /// A cutoff's history bonus: `quadratic × depth² + linear × depth`, at most `maximum`.
    public var historyBonusQuadratic = 16
    public var historyBonusLinear = 34
    public var historyBonusMaximum = 1_191

    /// The values the engine plays with.
    public static let standard = SearchParameters()

    public init() {}

    /// One tunable number: its name, where it lives, the range a tuner may move it in, and how far
    /// a tuner nudges it each way by the end of a run (SPSA's final perturbation).
    public struct Tunable: Sendable {
        public let name: String
        public let keyPath: WritableKeyPath<SearchParameters, Int> & Sendable
        public let range: ClosedRange<Int>
        public let step: Double
    }

    /// Every parameter, by the name files and tuners give it.
    public static let tunables: [Tunable] = [
        Tunable(name: "AspirationWindow", keyPath: \.aspirationWindow, range: 10...150, step: 5),
        Tunable(name: "ReverseFutilityMargin", keyPath: \.reverseFutilityMargin, range: 20...250, step: 8),
        Tunable(name: "FutilityBase", keyPath: \.futilityBase, range: 0...250, step: 8),
        Tunable(name: "FutilityMarginPerPly", keyPath: \.futilityMarginPerPly, range: 20...300, step: 8),
        Tunable(name: "LateMoveBase", keyPath: \.lateMoveBase, range: 1...12, step: 1),
        Tunable(name: "LateMoveFactor", keyPath: \.lateMoveFactor, range: 1...6, step: 0.5),
        Tunable(name: "SingularMarginPerPly", keyPath: \.singularMarginPerPly, range: 1...8, step: 0.5),
        Tunable(name: "ReductionBase", keyPath: \.reductionBase, range: 0...200, step: 8),
        Tunable(name: "ReductionDivisor", keyPath: \.reductionDivisor, range: 60...400, step: 10),
        Tunable(
            name: "HistoryPerReduction", keyPath: \.historyPerReduction, range: 1_000...30_000, step: 600),
        Tunable(name: "HistoryBonusQuadratic", keyPath: \.historyBonusQuadratic, range: 0...64, step: 2),
        Tunable(name: "HistoryBonusLinear", keyPath: \.historyBonusLinear, range: 0...128, step: 4),
        Tunable(name: "HistoryBonusMaximum", keyPath: \.historyBonusMaximum, range: 200...4_000, step: 120),
    ]

    /// The late move reduction for a move numbered `number` (from 0) at `depth`, both below 64.
    func reduction(depth: Int, number: Int) -> Int {
        guard depth > 0, number > 0 else { return 0 }
        let value =
            Double(reductionBase) / 100 + log(Double(depth)) * log(Double(number))
            / (Double(reductionDivisor) / 100)
        return max(0, min(32, Int(value)))
    }

    /// The history bonus of a cutoff at `depth`.
    @inline(__always)
    func historyBonus(depth: Int) -> Int32 {
        Int32(min(historyBonusQuadratic * depth * depth + historyBonusLinear * depth, historyBonusMaximum))
    }
}

extension SearchParameters {
    /// Reads `Name=value` lines (blank lines and `#` comments allowed); a parameter not named
    /// keeps its standard value.
    ///
    /// - Throws: `ParameterError` for an unknown name, a value that is not a whole number, one
    ///   outside its range, or a name given twice.
    public init(text: String) throws(ParameterError) {
        self.init()
        var seen: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .trimmingSpaces
            if line.isEmpty { continue }
            let fields = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let place = "line \(index + 1)"
            guard fields.count == 2 else { throw ParameterError("\(place): expected Name=value") }
            let name = String(fields[0].trimmingSpaces)
            guard let tunable = Self.tunables.first(where: { $0.name == name }) else {
                throw ParameterError("\(place): no parameter '\(name)'")
            }
            guard seen.insert(name).inserted else { throw ParameterError("\(place): '\(name)' given twice") }
            guard let value = Int(fields[1].trimmingSpaces) else {
                throw ParameterError("\(place): '\(name)' needs a whole number")
            }
            guard tunable.range.contains(value) else {
                throw ParameterError(
                    "\(place): '\(name)' must be from \(tunable.range.lowerBound) to \(tunable.range.upperBound)"
                )
            }
            self[keyPath: tunable.keyPath] = value
        }
    }

    /// Every parameter as a `Name=value` line, in `tunables` order: what `init(text:)` reads.
    public var text: String {
        Self.tunables.map { "\($0.name)=\(self[keyPath: $0.keyPath])\n" }.joined()
    }
}

/// Parameters that could not be read: one line for the person.
public struct ParameterError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }
}

/// Natural logarithm, by the series around 1 after scaling into [0.5, 1), so that the AI needs no
/// C library; only used to fill the reduction table.
private func log(_ value: Double) -> Double {
    precondition(value > 0)
    var x = value
    var exponent = 0.0
    while x >= 1 {
        x /= 2
        exponent += 1
    }
    while x < 0.5 {
        x *= 2
        exponent -= 1
    }
    // ln(x) = 2 atanh((x - 1) / (x + 1))
    let y = (x - 1) / (x + 1)
    var term = y
    var sum = 0.0
    var power = 1.0
    for _ in 0..<40 {
        sum += term / power
        term *= y * y
        power += 2
    }
    return 2 * sum + exponent * 0.693_147_180_559_945_3
}
