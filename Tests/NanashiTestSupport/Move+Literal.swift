import NanashiCore

/// Moves written in tests as their notation (`"f2"`, `"a7c5"`, `"0000"`), as messages carry them;
/// a literal that is not a move stops the test.
extension Move: ExpressibleByStringLiteral {
    public init(stringLiteral notation: String) {
        self = try! Move(notation: notation)
    }
}
