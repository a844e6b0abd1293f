/// Why moves written as text could not be replayed: the first bad move, and what is wrong with it.
public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Move number `ply` (from 1) is not written as a move.
    case notAMove(ply: Int, MoveParseError)
    /// Move number `ply` is not legal in the position it was played in.
    case illegal(ply: Int, IllegalMoveError)

    /// The number of the bad move, from 1.
    public var ply: Int {
        switch self {
        case .notAMove(let ply, _), .illegal(let ply, _): ply
        }
    }

    /// `bad move: 'h9' is not a square: expected a1 to g7`, or the illegal move with the FEN of
    /// the position it was tried in.
    public var description: String {
        switch self {
        case .notAMove(_, let error): "bad move: \(error)"
        case .illegal(_, let error): "\(error) in \(error.position.fen)"
        }
    }
}

extension Position {
    /// Plays `moves`, written in move notation (`c3`, `a1c3`, `0000`), one after the other from
    /// this position: the one way moves stored or sent as text are read back.
    ///
    /// - Returns: the moves read and the position after the last one.
    /// - Throws: `ReplayError` at the first move that is not a move or not legal; nothing is
    ///   replayed halfway.
    public func replaying(_ moves: some Sequence<some StringProtocol>) throws(ReplayError) -> (
        moves: [Move], position: Position
    ) {
        var position = self
        var played: [Move] = []
        for text in moves {
            let move: Move
            do {
                move = try Move(notation: text)
            } catch {
                throw .notAMove(ply: played.count + 1, error)
            }
            do {
                position = try position.play(move)
            } catch {
                throw .illegal(ply: played.count + 1, error)
            }
            played.append(move)
        }
        return (played, position)
    }
}
