import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// A game as a watcher follows it: the moves the server announced, both players, both clocks
/// as of the last word from the server, and the end once it comes.
public struct WatchTable: Sendable {
    public let id: Int64
    public let x: GamePlayer
    public let o: GamePlayer
    public let control: TimeControl
    public private(set) var game: Game
    /// The clocks the server last sent, running for the side to move since they arrived.
    private var clock: GameClock
    /// How the game ended, once the server said so.
    public private(set) var end: WatchedEnd?

    /// The table for the `game` a watcher gets. The moves are replayed from the start for the
    /// last-move mark; should they not lead to the position sent, the position wins.
    ///
    /// - Throws: `FENError` when the server's position cannot be read.
    public init(_ watched: WatchedGame, now: ContinuousClock.Instant) throws(FENError) {
        id = watched.game
        x = watched.x
        o = watched.o
        control = watched.control
        game = try Game.fromServer(fen: watched.fen, moves: watched.moves, start: watched.start)
        clock = GameClock(watched.clock, running: Self.running(in: game.current), since: now)
    }

    public var position: Position { game.current }

    /// Takes in a `moved` of this game: returns `false` for anything but the next move.
    public mutating func apply(_ moved: Moved, now: ContinuousClock.Instant) -> Bool {
        guard moved.game == id, end == nil, moved.ply == game.moves.count + 1 else { return false }
        game = game.following(moved)
        clock = GameClock(moved.clock, running: Self.running(in: game.current), since: now)
        return true
    }

    /// Takes in the `end` of this game, stopping both clocks where they stand.
    public mutating func finish(_ end: WatchedEnd, now: ContinuousClock.Instant) {
        guard end.game == id else { return }
        clock = GameClock(clock.reading(at: now), running: nil, since: now)
        self.end = end
    }

    /// Both clocks at `now`, the side to move's time running until the end.
    public func clocks(at now: ContinuousClock.Instant) -> Clocks { clock.reading(at: now) }

    /// The clock line at `now`: `*x 4:58.2   o 5:00.0`, the running side marked.
    public func clockLine(at now: ContinuousClock.Instant) -> String {
        " " + ClockText.line(clocks(at: now), toMove: clock.running)
    }

    /// The heading: `game 12: ann 1500 (x) v bob 1480 (o), 5+3`.
    public var heading: String {
        "game \(id): \(x.label) (x) v \(o.label) (o), \(control)"
    }

    /// Words after each side's piece count: the player's name and rating (`Opponent.label`).
    public var labels: [Side: String] {
        [.x: x.label, .o: o.label]
    }

    /// The lines shown once the game is over, such as `game over: x wins (o resigned)` and the
    /// final count.
    public var endText: String? {
        end.map { $0.outcome.summary(final: position) }
    }

    private static func running(in position: Position) -> Side? {
        position.isGameOver ? nil : position.sideToMove
    }
}
