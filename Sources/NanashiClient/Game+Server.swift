import NanashiCore
import NanashiProtocol
import NanashiTerminal

extension Game {
    /// The game from the server's account of it (`game`): the moves are replayed from the start
    /// (`start`, the standard start when not sent) for the last-move marks; should they not lead
    /// to the position sent, the position wins.
    ///
    /// - Throws: `FENError` when the server's position cannot be read.
    static func fromServer(fen: String, moves: [Move], start: String? = nil) throws(FENError) -> Game {
        let sent = try Position(fen: fen)
        let first = start.flatMap { try? Position(fen: $0) } ?? .start
        if let whole = try? Game(start: first, moves: moves), whole.current == sent { return whole }
        return Game(start: sent)
    }

    /// The game after the server's `moved`, which must be the next move: the move played here,
    /// or, should the server's position differ, the game goes on from that position (the server
    /// owns the truth).
    func following(_ moved: Moved) -> Game {
        var next = self
        if (try? next.play(moved.move)) != nil, next.current.fen == moved.fen {
            return next
        }
        return (try? Position(fen: moved.fen)).map { Game(start: $0) } ?? self
    }
}
