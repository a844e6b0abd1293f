import NanashiCore
import NanashiProtocol

/// The moves array of a game's `watching` line, written once a ply: however many connections
/// (here or on other nodes) watch, or watch again, while no move is played, the moves are
/// written out once.
struct WatchedMoves {
    private var moves: [Move] = []
    private var array = "[]"
    /// How many times the array was written (for the tests).
    private(set) var writes = 0

    /// The `watching` line of `watched`, answering `id`.
    mutating func line(_ watched: WatchedGame, id: RequestID?) -> String {
        if moves != watched.moves {
            (moves, array) = (watched.moves, Wire.movesArray(watched.moves))
            writes += 1
        }
        return Wire.watchingLine(watched, id: id, movesArray: array)
            ?? Wire.line(Reply(.watching(watched), id: id))
    }
}
