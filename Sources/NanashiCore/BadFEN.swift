/// A FEN given by a person that cannot be read, named with why:
/// `bad FEN 'x5o/7 x': the board must have 7 ranks separated by '/', not 2`.
public struct BadFEN: Error, Hashable, Sendable, CustomStringConvertible {
    public let fen: String
    public let reason: FENError

    public var description: String { "bad FEN '\(fen)': \(reason)" }
}

extension Position {
    /// The position a person's FEN (or `startpos`) gives, the start when none is given: what a
    /// command's `--fen` or UAI's `position fen` takes.
    ///
    /// - Throws: `BadFEN`, naming the text.
    public init(given fen: String?) throws(BadFEN) {
        guard let fen else {
            self = .start
            return
        }
        do {
            self = try Position(fen: fen)
        } catch {
            throw BadFEN(fen: fen, reason: error)
        }
    }
}
