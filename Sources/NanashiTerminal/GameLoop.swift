import NanashiCore

/// One game at the terminal, turn by turn, for every way of playing: against the AI, two people
/// at one keyboard, or online. It owns no console, thread or socket: its driver asks `turn` who
/// is to move, hands it what happened (a command typed, a move from a move source) and carries
/// out the effects it returns.
///
/// A side is played at the keyboard, or by a move source: the AI, whose moves `TerminalGame`
/// asks for and hands to `receive(_:)`, or the server, whose moves `OnlineSession` takes in as
/// they arrive (with `replace(with:)`: the server's account of the game wins). Either way the
/// board, the selection, the prompt and the forced pass work the same.
public struct GameLoop: Sendable {
    /// What the loop waits for.
    public enum Turn: Hashable, Sendable {
        /// The game is over.
        case over(Outcome)
        /// This side has no move and must pass: call `forcedPass()`.
        case forcedPass(Side)
        /// This side is played at the keyboard: show `prompt`, read a line, call `handle(_:)`.
        case keyboard(Side)
        /// This side's move source chooses the move: wait for it (the AI's goes to `receive(_:)`).
        case source(Side)
    }

    /// What the driver does for the loop, in order.
    public enum Effect: Hashable, Sendable {
        /// Writes one line.
        case say(String)
        /// Draws the board (`screen`) again; a driver may add lines of its own under it.
        case draw
        /// The side to move plays this legal move: play it (`play(_:)`), or send it to the server.
        case submit(Move)
        /// A command that depends on how the game is played (help, undo, hint, save, load,
        /// resign, quit): the driver's to carry out or refuse.
        case command(Command)
    }

    /// The game as it stands.
    public private(set) var game: Game
    /// The piece selected at the keyboard, whose targets the board shows.
    public private(set) var selected: Square?
    /// The board is drawn from `o`'s side.
    public var flipped: Bool
    /// The sides played at the keyboard.
    public let keyboard: Set<Side>
    /// Words after each side's piece count (`you`, `AI level 3`).
    public let labels: [Side: String]
    private let renderer: BoardRenderer
    private var resigned: Side?

    /// - Parameters:
    ///   - keyboard: the sides played at the keyboard; the others by move sources.
    ///   - color: draw with ANSI colors.
    public init(
        game: Game, keyboard: Set<Side>, labels: [Side: String] = [:], flipped: Bool = false,
        color: Bool = false
    ) {
        self.game = game
        self.keyboard = keyboard
        self.labels = labels
        self.flipped = flipped
        renderer = BoardRenderer(color: color)
    }

    /// Who is to move, and how the loop waits for the move.
    public var turn: Turn {
        let position = game.current
        if let resigned { return .over(.resignation(by: resigned)) }
        if let outcome = position.outcome { return .over(outcome) }
        let side = position.sideToMove
        if !position.hasMove { return .forcedPass(side) }
        return keyboard.contains(side) ? .keyboard(side) : .source(side)
    }

    /// The board with the last move, the selection and the lines under it.
    public var screen: String {
        renderer.render(
            game.current, lastMove: game.lastMove, selected: selected, flipped: flipped, labels: labels)
    }

    /// The prompt of the side to move, with its selected piece: `x> `, `x [c5]> `.
    public var prompt: String {
        let side = game.current.sideToMove
        return selected.map { "\(side) [\($0)]> " } ?? "\(side)> "
    }

    /// Carries out a command typed by the person to move: selects a piece, checks a move, lists
    /// the moves, turns or draws the board; the rest is the driver's (`.command`).
    public mutating func handle(_ command: Command) -> [Effect] {
        let position = game.current
        switch command {
        case .nothing:
            return []
        case .square(let square):
            switch Selection.action(for: square, selected: selected, in: position) {
            case .success(.select(let square)):
                selected = square
                return [.draw]
            case .success(.deselect):
                selected = nil
                return [.draw]
            case .success(.play(let move)):
                return [.submit(move)]
            case .failure(let problem):
                return [.say(problem.description)]
            }
        case .move(let move):
            do {
                _ = try position.play(move)
            } catch {
                return [.say(error.description)]
            }
            return [.submit(move)]
        case .moves:
            return [.say("legal moves: " + position.legalMoves().map(\.description).joined(separator: " "))]
        case .flip:
            flipped.toggle()
            return [.draw]
        case .board:
            return [.draw]
        case .help, .undo, .hint, .save, .load, .resign, .quit, .draw, .declineDraw, .acceptChallenge:
            return [.command(command)]
        }
    }

    /// The pass of a side with no move, said and submitted.
    public func forcedPass() -> [Effect] {
        [.say("\(game.current.sideToMove) has no move and passes"), .submit(.pass)]
    }

    /// A move from the side to move's source: played, or, when it is illegal, the side resigns.
    public mutating func receive(_ move: Move) -> [Effect] {
        let side = game.current.sideToMove
        guard game.current.isLegal(move) else {
            resigned = side
            return [.say("\(side) sent an illegal move \(move); it resigns")]
        }
        play(move)
        return [.draw]
    }

    /// Plays a legal move (a submitted one, or a source's) and drops the selection.
    ///
    /// - Precondition: `move` is legal in the current position.
    public mutating func play(_ move: Move) {
        try! game.play(move)
        selected = nil
    }

    /// The side to move gives up; `turn` is over from now on.
    public mutating func resign() {
        resigned = game.current.sideToMove
    }

    /// Goes on from `game` instead (loaded from a file, or the server's account of the game).
    public mutating func replace(with game: Game) {
        self.game = game
        selected = nil
    }

    /// Takes back moves to the previous turn of a side at the keyboard; returns how many (0
    /// changes nothing).
    public mutating func undo() -> Int {
        let count = game.undo(toTurnOf: keyboard)
        if count > 0 { selected = nil }
        return count
    }
}
