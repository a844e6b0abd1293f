import ArgumentParser
import NanashiCore

/// `--fen`: the position a command starts from.
public struct FENOption: ParsableArguments {
    public init() {}

    /// Taken whatever it starts with: a FEN whose a7 is a blocker starts with '-'.
    @Option(parsing: .unconditional, help: "The position to start from, as FEN or 'startpos'.")
    var fen: String?

    /// The position given, the start when none is.
    public func position() throws(BadFEN) -> Position { try Position(given: fen) }
}
