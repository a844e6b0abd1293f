import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer

/// A host writes a game's moves for its watchers once a ply: watching again, or by more
/// connections, writes nothing new until a move is played or taken back.
@Test func theMovesOfAWatchedGameAreWrittenOnceAPly() throws {
    var watched = WatchedGame(
        game: 7, x: GamePlayer(name: "ann", rating: 1500), o: GamePlayer(name: "bob", rating: 1490),
        fen: Position.start.fen, moves: [], clock: Clocks(x: 300_000, o: 300_000),
        control: TimeControl(initial: 300, increment: 0))
    var lines = WatchedMoves()
    var position = Position.start
    for move in [Move("f2"), Move("b2"), Move("g1e3")].compactMap(\.self) {
        position = try position.play(move)
        (watched.moves, watched.fen) = (watched.moves + [move], position.fen)
        for request: Int64 in 0..<50 {
            watched.clock.x -= 10
            let line = lines.line(watched, id: .integer(request))
            #expect(line == Wire.line(Reply(.watching(watched), id: .integer(request))))
        }
    }
    #expect(lines.writes == 3)
    watched.moves.removeLast()
    #expect(lines.line(watched, id: nil) == Wire.line(Reply(.watching(watched))))
    #expect(lines.writes == 4)
}
