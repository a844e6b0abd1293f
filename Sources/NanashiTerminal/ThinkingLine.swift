import NanashiCore

/// The one-line progress report shown while the AI thinks:
/// `o is thinking: depth 8, best so far b1, score +1.00 for o`.
public enum ThinkingLine {
    /// A search score as people read it.
    public enum Score: Hashable, Sendable {
        /// The material balance in hundredths of a piece, from the thinking side's point of view.
        case centipieces(Int)
        /// The thinking side wins in this many plies.
        case win(plies: Int)
        /// The thinking side loses in this many plies.
        case loss(plies: Int)
    }

    /// The line before the first depth is done.
    public static func started(by side: Side) -> String {
        "\(side) is thinking..."
    }

    /// The line after a completed depth.
    public static func progress(by side: Side, depth: Int, best: Move?, score: Score) -> String {
        "\(side) is thinking: depth \(depth), best so far \(best.map { "\($0)" } ?? "-"), "
            + describe(score, for: side)
    }

    static func describe(_ score: Score, for side: Side) -> String {
        switch score {
        case .win(let plies): return "\(side) wins in \(plies) \(plies == 1 ? "ply" : "plies")"
        case .loss(let plies): return "\(side.opponent) wins in \(plies) \(plies == 1 ? "ply" : "plies")"
        case .centipieces(let value):
            let size = value.magnitude
            let hundredths = size % 100 < 10 ? "0\(size % 100)" : "\(size % 100)"
            return "score \(value < 0 ? "-" : "+")\(size / 100).\(hundredths) for \(side)"
        }
    }
}
