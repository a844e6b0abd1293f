import ArgumentParser
import NanashiClient
import NanashiCore

/// `--fen` or `--layout`: the position a command starts from.
public struct FENOption: ParsableArguments {
    public init() {}

    /// Taken whatever it starts with: a FEN whose a7 is a blocker starts with '-'.
    @Option(parsing: .unconditional, help: "The position to start from, as FEN or 'startpos'.")
    var fen: String?

    @Option(help: "Start from this layout instead ('nanashi layouts' draws them).")
    var layout: String?

    /// Refuses a layout of no name, and a layout given with a FEN, in the words `online` uses.
    public func validate() throws {
        guard let layout else { return }
        do { _ = try StartChoice(layout: layout, fen: fen) } catch {
            throw ValidationError(error.description)
        }
    }

    /// The position given, the start when none is.
    public func position() throws(BadFEN) -> Position {
        if let layout, let named = Layout.named(layout) { return named.position }
        return try Position(given: fen)
    }
}
