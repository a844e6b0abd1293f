/// Why a FEN cannot start a game: what a game from a custom position is checked for.
public enum BadStart: Error, Hashable, Sendable, CustomStringConvertible {
    /// Longer than `Position.longestStartFEN` bytes.
    case tooLong(bytes: Int)
    /// Not a FEN.
    case malformed(FENError)
    /// Neither side can ever move again: no empty square lies within reach of a piece.
    case noMoves
    /// The game is over already (a side without pieces, or the halfmove clock at 100).
    case over(Outcome)

    public var description: String {
        switch self {
        case .tooLong(let bytes):
            "a start FEN is at most \(Position.longestStartFEN) bytes, not \(bytes)"
        case .malformed(let error): "bad FEN: \(error)"
        case .noMoves: "neither side has a move from this FEN"
        case .over(let outcome): "the game is over at this FEN: \(outcome.verdict)"
        }
    }
}

extension Position {
    /// The longest FEN a game may start from, in bytes (a full board's takes 60 or so).
    public static let longestStartFEN = 100

    /// The position a game may start from: a FEN of at most `longestStartFEN` bytes, from
    /// which the game is not over and some side has a move.
    ///
    /// - Throws: `BadStart`, with the reason.
    public init(startingAt fen: String) throws(BadStart) {
        guard fen.utf8.count <= Self.longestStartFEN else { throw .tooLong(bytes: fen.utf8.count) }
        let position: Position
        do {
            position = try Position(fen: fen)
        } catch {
            throw .malformed(error)
        }
        if position.isLocked, position.pieces(of: .x).rawValue != 0, position.pieces(of: .o).rawValue != 0 {
            throw .noMoves
        }
        if let outcome = position.outcome { throw .over(outcome) }
        self = position
    }
}
