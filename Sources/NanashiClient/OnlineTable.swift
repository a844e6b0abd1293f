import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// The game an online player is in, as this client knows it: the moves the server accepted (in
/// the game loop that this player's side is typed into and the server's moves are fed to), whose
/// side is whose, and both clocks as of the last word from the server.
struct OnlineTable {
    let id: Int64
    let side: Side
    let opponent: Opponent
    let control: TimeControl
    /// Whether the result changes ratings (a casual game's and the engine's do not).
    let rated: Bool
    /// The game at the terminal: this player's side at the keyboard, the other's from the server.
    var loop: GameLoop
    /// The clocks the server last sent, running for the side to move since they arrived.
    private(set) var clock: GameClock

    /// The table for a game just started: one in progress with no moves, both clocks full.
    ///
    /// - Throws: `FENError` when the server's position cannot be read.
    init(_ start: GameStart, now: ContinuousClock.Instant, view: View) throws(FENError) {
        let initial = start.control.initialMilliseconds
        try self.init(
            GameState(
                game: start.game, color: start.color, opponent: start.opponent, fen: start.fen, moves: [],
                clock: Clocks(x: initial, o: initial), control: start.control, rated: start.rated),
            now: now, view: view)
    }

    /// The table for a game in progress, from the server's whole account of it. The moves are
    /// replayed from the start for the last-move marks; should they not lead to the position
    /// sent, the position wins.
    ///
    /// - Throws: `FENError` when the server's position cannot be read.
    init(_ state: GameState, now: ContinuousClock.Instant, view: View) throws(FENError) {
        id = state.game
        side = state.color
        opponent = state.opponent
        control = state.control
        rated = state.rated
        loop = Self.loop(
            try Game.fromServer(fen: state.fen, moves: state.moves, start: state.start), side: side,
            opponent: opponent,
            view: view)
        clock = GameClock(state.clock, running: Self.running(in: loop.game.current), since: now)
    }

    /// How the board is drawn: in color, and from which side.
    struct View {
        var color: Bool
        var flipped: Bool
    }

    /// The loop for `game`: this player at the keyboard, labelled `you`, the opponent's name and
    /// rating (`Opponent.label`) on the other side.
    private static func loop(_ game: Game, side: Side, opponent: Opponent, view: View) -> GameLoop {
        GameLoop(
            game: game, keyboard: [side],
            labels: [side: "you", side.opponent: opponent.label],
            flipped: view.flipped, color: view.color)
    }

    var position: Position { loop.game.current }

    /// It is this player's move.
    var isOurTurn: Bool { !position.isGameOver && position.sideToMove == side }

    /// Takes in a `moved`: returns `false` when it is not the next move (an echo already seen).
    mutating func apply(_ moved: Moved, now: ContinuousClock.Instant) -> Bool {
        guard moved.ply == loop.game.moves.count + 1 else { return false }
        loop.replace(with: loop.game.following(moved))
        clock = GameClock(moved.clock, running: Self.running(in: position), since: now)
        return true
    }

    /// Both clocks at `now`, the side to move's time running.
    func clocks(at now: ContinuousClock.Instant) -> Clocks { clock.reading(at: now) }

    /// The side whose clock runs in `position`: the side to move, until the game is over.
    private static func running(in position: Position) -> Side? {
        position.isGameOver ? nil : position.sideToMove
    }
}
