/// A named starting position: the standard start, or the start with blockers on some squares.
///
/// `Layout.all` is the set people play (the engine's book plays the same ten blocker layouts):
/// each is symmetric between the files a-c and g-e, so that neither side stands better, and x
/// moves first from it.
public struct Layout: Hashable, Sendable, CustomStringConvertible {
    /// A short name in lower case, as the protocol and the command line take it: `cross`.
    public let name: String
    /// The blocked squares, in the order the layout lists them.
    public let blockers: [Square]
    /// The position a game from this layout starts from.
    public let position: Position

    private init(_ name: String, _ blockers: [String]) {
        self.name = name
        self.blockers = blockers.map { Square($0)! }
        var blocked: UInt64 = 0
        for square in self.blockers { blocked |= 1 << UInt64(square.index) }
        let start = Position.start
        self.position = Position(
            x: start.pieces(of: .x).rawValue, o: start.pieces(of: .o).rawValue, blockers: blocked,
            sideToMove: .x, halfmoveClock: 0, fullmoveNumber: 1)
    }

    /// The start position in FEN: `x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1`.
    public var fen: String { position.fen }

    /// Whether this is the standard start (no blockers).
    public var isStandard: Bool { blockers.isEmpty }

    public var description: String { name }

    /// The standard start, `x5o/7/7/7/7/7/o5x x 0 1`.
    public static let standard = Layout("standard", [])

    /// Every layout, the standard start first, then the blocker layouts in the order of the
    /// engine's book.
    public static let all: [Layout] = [
        standard,
        Layout("square", ["c3", "e3", "c5", "e5"]),
        Layout("column", ["d3", "d5"]),
        Layout("corners", ["b2", "f2", "b6", "f6"]),
        Layout("row", ["c4", "e4"]),
        Layout("cross", ["d2", "d6", "b4", "f4"]),
        Layout("centre", ["d4"]),
        Layout("gates", ["c2", "e2", "c6", "e6"]),
        Layout("flanks", ["b3", "f3", "b5", "f5"]),
        Layout("edges", ["a4", "g4", "d1", "d7"]),
        Layout("posts", ["c1", "e1", "c7", "e7"]),
    ]

    /// The longest name a layout has, in bytes: longer text names none.
    public static let longestName = 16

    /// The layout named `name` (exactly, in lower case), or `nil`.
    public static func named(_ name: String) -> Layout? {
        guard name.utf8.count <= longestName else { return nil }
        return all.first { $0.name == name }
    }

    /// The layout whose start is `position`, or `nil` for any other position.
    public static func starting(_ position: Position) -> Layout? {
        all.first { $0.position == position }
    }
}
