/// A move: a clone to an empty neighbouring square, a jump of one piece, or a pass.
///
/// A `Move` is only text-level valid; whether it can be played depends on the position
/// (see `Position.play(_:)`). A jump may hold any two squares, so that "a1a4" can be parsed and
/// then refused as too far rather than being unrepresentable.
public enum Move: Hashable, Sendable, CustomStringConvertible {
    /// A new piece appears on `to`; the piece next to it stays where it was.
    case clone(to: Square)
    /// The piece on `from` moves to `to`, two king steps away, leaving `from` empty.
    case jump(from: Square, to: Square)
    /// The side to move has no move and passes its turn.
    case pass

    /// The destination square, or `nil` for a pass.
    @inlinable
    public var destination: Square? {
        switch self {
        case .clone(let to), .jump(_, let to): return to
        case .pass: return nil
        }
    }

    /// The move in the engine community's notation: `f2`, `a7c5` or `0000`.
    public var description: String {
        switch self {
        case .clone(let to): return to.name
        case .jump(let from, let to): return from.name + to.name
        case .pass: return "0000"
        }
    }
}

/// Why a text is not a move at all (as opposed to a move that is not legal in a position).
public enum MoveParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text was empty.
    case empty
    /// The text is not 2 or 4 characters long, nor `0000`.
    case badLength(String)
    /// Part of the text is not a square's name.
    case badSquare(String)

    public var description: String {
        switch self {
        case .empty: return "empty move"
        case .badLength(let text):
            return "'\(text)' is not a move: expected a square like f2, two squares like a7c5, or 0000"
        case .badSquare(let text): return "'\(text)' is not a square: expected a1 to g7"
        }
    }
}

extension Move {
    /// Parses `f2` (clone), `a7c5` (jump) or `0000` (pass). Surrounding white space is ignored.
    ///
    /// Two squares one step apart (`b2b3`) are read as the clone to the second square, since a
    /// clone is identified by its destination alone.
    public init(notation: some StringProtocol) throws(MoveParseError) {
        let text = notation.trimmingWhitespace()
        switch text.utf8.count {
        case 0:
            throw .empty
        case 2:
            guard let to = Square(text) else { throw .badSquare(text) }
            self = .clone(to: to)
        case 4 where text == "0000":
            self = .pass
        case 4:
            let first = text.prefix(2)
            let second = text.dropFirst(2)
            guard let from = Square(first) else { throw .badSquare(String(first)) }
            guard let to = Square(second) else { throw .badSquare(String(second)) }
            self = from.distance(to: to) == 1 ? .clone(to: to) : .jump(from: from, to: to)
        default:
            throw .badLength(text)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    package func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(self[first...last])
    }
}
