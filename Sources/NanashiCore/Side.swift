/// One of the two players: `x` moves first, `o` second. Encodes as its letter, `"x"` or `"o"`.
public enum Side: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case x
    case o

    /// The other player.
    @inlinable
    public var opponent: Side { self == .x ? .o : .x }

    public var description: String { rawValue }

    /// Where this side's keys start in `Zobrist.piece`.
    @inlinable
    var zobristOffset: Int { self == .x ? 0 : 49 }
}
