/// What the user types while stepping through a recorded game (`nanashi replay`).
public enum ReplayStep: Hashable, Sendable {
    /// `n` (or an empty line): one move forward.
    case next
    /// `b`: one move back.
    case back
    /// `s`: the start position.
    case start
    /// `e`: the position after the last move.
    case end
    /// A number: the position after that many moves (0 is the start).
    case ply(Int)
    /// `eval`: the engine's evaluation and best move of the position shown.
    case eval
    /// `help` or `?`.
    case help
    /// `q`, `quit`: leave.
    case quit

    /// The line shown for `help`.
    public static let helpText = "n next, b back, s start, e end, a ply number, eval, q quit"

    /// Reads one line; `nil` for anything else (say so, and show `helpText`).
    public init?(parsing line: some StringProtocol) {
        let word = line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .lowercased()
        switch word {
        case "", "n", "next": self = .next
        case "b", "back": self = .back
        case "s", "start": self = .start
        case "e", "end": self = .end
        case "eval": self = .eval
        case "help", "?", "h": self = .help
        case "q", "quit", "exit": self = .quit
        default:
            guard let ply = Int(word), ply >= 0 else { return nil }
            self = .ply(ply)
        }
    }
}
