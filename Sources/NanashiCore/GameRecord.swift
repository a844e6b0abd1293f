/// A game as PGN records it: tags, the starting position, the moves played and the result.
///
/// Every move in a record is legal in the position it was played in: `append(_:)` checks it,
/// and reading PGN refuses a game with an illegal move. The player of `x` is the `White` tag and
/// the result `1-0` means x won, as python-ataxx writes them.
public struct GameRecord: Hashable, Sendable {
    /// The tag pairs, such as `Event` or `White`. `Result`, `FEN` and `SetUp` are written from
    /// `result` and `start`, whatever this holds for them.
    public var tags: [String: String]
    /// The position before the first move.
    public let start: Position
    /// The moves in order.
    public private(set) var moves: [Move]
    /// The position after the last move.
    public private(set) var current: Position
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game is unfinished.
    public var result: String

    /// An empty game from `start`.
    public init(start: Position = .start, tags: [String: String] = [:]) {
        self.start = start
        self.tags = tags
        moves = []
        current = start
        result = "*"
    }

    /// A game of `moves` from `start`, each checked in turn once. With an `outcome`, the record
    /// also says how the game ended: its result, PGN's `Termination` and the protocol's `Reason`
    /// tags; without one its result is `*`. The one place a played game becomes PGN.
    public init(
        start: Position = .start, moves: some Sequence<Move>, tags: [String: String] = [:],
        outcome: Outcome? = nil
    ) throws(IllegalMoveError) {
        self.init(start: start, tags: tags)
        for move in moves { try append(move) }
        if let outcome {
            result = outcome.result
            self.tags["Termination"] = outcome.termination
            self.tags["Reason"] = outcome.reason.rawValue
        }
    }

    /// Plays `move` on the current position and records it; on an illegal move nothing changes.
    public mutating func append(_ move: Move) throws(IllegalMoveError) {
        current = try current.play(move)
        moves.append(move)
    }

    /// Takes back the last `count` moves (all of them when there are fewer).
    public mutating func removeLast(_ count: Int = 1) {
        moves.removeLast(min(count, moves.count))
        current = moves.reduce(into: start) { position, move in position.make(unchecked: move) }
    }

    /// The PGN result of a game won by `winner` (`nil` for a draw): `1-0` for x, `0-1` for o,
    /// `1/2-1/2`. The one place this mapping is written, for every kind of game end.
    public static func result(winner: Side?) -> String {
        switch winner {
        case .x: return "1-0"
        case .o: return "0-1"
        case nil: return "1/2-1/2"
        }
    }

    /// Every position of the game: `start`, then the one after each move.
    public var positions: [Position] {
        moves.reduce(into: [start]) { positions, move in
            var next = positions[positions.count - 1]
            next.make(unchecked: move)
            positions.append(next)
        }
    }
}

extension GameRecord {
    /// The tags written first, in this order (PGN's seven-tag roster).
    private static let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]

    /// The game as PGN text: tags, an empty line, then the numbered moves and the result on one line.
    ///
    /// The moves are not wrapped: python-ataxx reads only the first line of a game's moves.
    public var pgn: String {
        var tags = self.tags
        tags["Result"] = result
        tags["FEN"] = start.fen
        // PGN's way to say the game starts elsewhere than the standard start, which readers may
        // need beside the FEN (always written).
        tags["SetUp"] = start != .start ? "1" : nil
        for name in Self.roster where tags[name] == nil { tags[name] = name == "Result" ? result : "?" }
        let ordered = Self.roster + tags.keys.filter { !Self.roster.contains($0) }.sorted()
        let text = ordered.map { "[\($0) \"\(Self.escaped(tags[$0]!))\"]\n" }.joined() + "\n"

        var tokens: [String] = []
        var number = start.fullmoveNumber
        var side = start.sideToMove
        for (ply, move) in moves.enumerated() {
            if side == .x {
                tokens.append("\(number).")
            } else if ply == 0 {
                tokens.append("\(number)...")
            }
            tokens.append(move.description)
            if side == .o { number += 1 }
            side = side.opponent
        }
        tokens.append(result)
        return text + tokens.joined(separator: " ") + "\n"
    }

    private static func escaped(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: " ")
    }
}
