import ArgumentParser
import NanashiCore

/// `--fen`: the position a command starts from.
public struct FENOption: ParsableArguments {
    public init() {}

    @Option(
        help: "The position to start from, as FEN or 'startpos' (write --fen=FEN when it starts with '-').")
    var fen: String?

    /// The position given, the start when none is.
    public func position() throws(BadFEN) -> Position { try Position(given: fen) }
}
