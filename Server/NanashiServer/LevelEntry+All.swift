import NanashiAI
import NanashiProtocol

extension LevelEntry {
    /// Every level of the engine with its rating, the weakest first: what `levels` answers and
    /// the play page offers, the same for everyone at any time.
    static let all = Level.all.map { LevelEntry(level: $0.number, elo: $0.elo) }
}
