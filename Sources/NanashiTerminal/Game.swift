import NanashiCore

/// A game being played: where it started and every move since, with undo.
///
/// The terminal client keeps one of these whatever the opponent is (a person at the same keyboard,
/// the AI, or a player online), so moves, undo, saving and the last-move marks work the same way.
public struct Game: Hashable, Sendable {
    /// The position the game started from.
    public let start: Position
    /// The moves played so far, in order.
    public private(set) var moves: [Move] = []
    /// The position after each move; `positions[0]` is `start`.
    public private(set) var positions: [Position]

    /// A new game from `start`.
    public init(start: Position = .start) {
        self.start = start
        positions = [start]
    }

    /// A game from `start` with `moves` played, or the first illegal move's error.
    public init(start: Position, moves: [Move]) throws(IllegalMoveError) {
        self.init(start: start)
        for move in moves { try play(move) }
    }

    /// The position now.
    public var current: Position { positions[positions.count - 1] }

    /// The last move with its marks, or `nil` before the first move.
    public var lastMove: PlayedMove? {
        guard let move = moves.last else { return nil }
        return PlayedMove(move, in: positions[positions.count - 2])
    }

    /// Plays `move` in the current position; an illegal move changes nothing.
    public mutating func play(_ move: Move) throws(IllegalMoveError) {
        let next = try current.play(move)
        moves.append(move)
        positions.append(next)
    }

    /// Takes back the last move; returns `false`, changing nothing, when there is none.
    @discardableResult
    public mutating func undo() -> Bool {
        guard !moves.isEmpty else { return false }
        moves.removeLast()
        positions.removeLast()
        return true
    }

    /// Takes back moves until it is one of `sides`' turn with a real choice (not a forced pass),
    /// taking back at least one move of those sides: against the AI, `undo` returns to the
    /// person's previous turn. Returns the number of moves taken back; 0 leaves the game as it was.
    public mutating func undo(toTurnOf sides: Set<Side>) -> Int {
        var trial = self
        var tookBackOwnMove = false
        while let last = trial.moves.last {
            let mover = trial.positions[trial.positions.count - 2].sideToMove
            if sides.contains(mover) && last != .pass { tookBackOwnMove = true }
            trial.undo()
            let position = trial.current
            if tookBackOwnMove && sides.contains(position.sideToMove) && position.hasMove {
                let count = moves.count - trial.moves.count
                self = trial
                return count
            }
        }
        return 0
    }
}
