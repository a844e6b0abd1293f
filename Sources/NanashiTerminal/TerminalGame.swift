import NanashiCore

/// One game in the terminal: draws the board, reads the people's input, asks opponents for
/// theirs, and handles the commands, until the game ends or the player leaves.
///
/// Where a side's moves come from is the only difference between the modes: sides in `opponents`
/// are asked, the others are typed at the keyboard.
public final class TerminalGame {
    /// How `run()` finished.
    public enum Ending: Equatable, Sendable {
        case finished(Outcome)
        case quit
    }

    /// The game as it stands.
    public private(set) var game: Game
    private let console: any TerminalConsole
    private let files: any GameFiles
    private let renderer: BoardRenderer
    private let opponents: [Side: any MoveSource]
    private let labels: [Side: String]
    private let hint: (Position) -> Move?
    private let tags: [String: String]
    private var flipped: Bool
    private var selected: Square?

    /// - Parameters:
    ///   - opponents: the sides not played at the keyboard, with who plays them.
    ///   - labels: words after each side's piece count (`you`, `level 3`).
    ///   - hint: the AI's suggestion for a position.
    ///   - tags: PGN tags written by `save` (`Event`, `White`, `Black`...).
    ///   - files: where `save` and `load` read and write.
    public init(
        game: Game, console: any TerminalConsole, files: any GameFiles, opponents: [Side: any MoveSource],
        labels: [Side: String], flipped: Bool, tags: [String: String], hint: @escaping (Position) -> Move?
    ) {
        self.game = game
        self.console = console
        self.files = files
        renderer = BoardRenderer(color: console.color)
        self.opponents = opponents
        self.labels = labels
        self.flipped = flipped
        self.tags = tags
        self.hint = hint
    }

    private var people: Set<Side> { Set([Side.x, .o].filter { opponents[$0] == nil }) }

    /// Plays until the game is over, a side resigns, or the player quits (or input ends).
    public func run() -> Ending {
        draw()
        while true {
            let position = game.current
            if let outcome = position.outcome { return .finished(outcome) }
            let side = position.sideToMove
            if !position.hasMove {
                console.say("\(side) has no move and passes")
                play(.pass)
                continue
            }
            if let opponent = opponents[side] {
                let move = opponent.move(in: game, console: console)
                guard game.current.isLegal(move) else {
                    console.say("\(side) sent an illegal move \(move); it resigns")
                    return .finished(.resignation(by: side))
                }
                play(move)
                continue
            }
            let prompt = selected.map { "\(side) [\($0)]> " } ?? "\(side)> "
            guard let line = console.ask(prompt) else { return .quit }
            if let ending = handle(line) { return ending }
        }
    }

    /// Carries out one line typed by the person to move; returns an ending when the game stops.
    private func handle(_ line: String) -> Ending? {
        let position = game.current
        let command: Command
        do {
            command = try Command(parsing: line)
        } catch {
            console.say(error.description)
            return nil
        }
        switch command {
        case .nothing:
            break
        case .square(let square):
            switch Selection.action(for: square, selected: selected, in: position) {
            case .success(.select(let square)):
                selected = square
                draw()
            case .success(.deselect):
                selected = nil
                draw()
            case .success(.play(let move)):
                tryPlaying(move)
            case .failure(let problem):
                console.say(problem.description)
            }
        case .move(let move):
            tryPlaying(move)
        case .help:
            console.say(Command.helpText)
        case .moves:
            console.say("legal moves: " + position.legalMoves().map(\.description).joined(separator: " "))
        case .undo:
            undo()
        case .hint:
            if let move = hint(position) {
                console.say("hint: \(move)")
            } else {
                console.say("no hint: the game is over")
            }
        case .save(let path):
            save(to: path)
        case .load(let path):
            load(from: path)
        case .flip:
            flipped.toggle()
            draw()
        case .board:
            draw()
        case .resign:
            return .finished(.resignation(by: position.sideToMove))
        case .quit:
            return .quit
        }
        return nil
    }

    /// Plays a move typed by the person, or says why it is illegal and changes nothing.
    private func tryPlaying(_ move: Move) {
        do {
            _ = try game.current.play(move)
        } catch {
            console.say(error.description)
            return
        }
        play(move)
    }

    /// Plays a legal move and shows the board after it.
    private func play(_ move: Move) {
        try! game.play(move)  // Every caller checked legality first.
        selected = nil
        draw()
    }

    /// Takes back moves to the previous turn of a person at the keyboard.
    private func undo() {
        let count = game.undo(toTurnOf: people)
        guard count > 0 else {
            console.say("nothing to undo")
            return
        }
        selected = nil
        console.say("took back \(count) \(count == 1 ? "move" : "moves")")
        draw()
    }

    private func save(to path: String) {
        var record = GameRecord(start: game.start, tags: tags)
        record.tags["Date"] = files.today
        for move in game.moves { try! record.append(move) }  // The game's moves are legal.
        record.result = game.current.outcome?.result ?? "*"
        do {
            try files.write(record.pgn, to: path)
            console.say("saved \(game.moves.count) moves to \(path)")
        } catch {
            console.say("cannot save to \(path): \(error)")
        }
    }

    private func load(from path: String) {
        let text: String
        do {
            text = try files.read(path)
        } catch {
            console.say("cannot read \(path): \(error)")
            return
        }
        do {
            let record = try GameRecord(pgn: text)
            game = try Game(start: record.start, moves: record.moves)
        } catch {
            console.say("cannot load \(path): \(error)")
            return
        }
        selected = nil
        console.say("loaded \(game.moves.count) moves from \(path)")
        draw()
    }

    private func draw() {
        console.write(
            renderer.render(
                game.current, lastMove: game.lastMove, selected: selected, flipped: flipped, labels: labels))
    }
}

extension TerminalGame {
    /// Shows how the game ended and asks whether to play again; end of input means no.
    public static func offerAnotherGame(
        after ending: Outcome, final position: Position, console: any TerminalConsole
    ) -> Bool {
        console.write(ending.summary(final: position))
        while true {
            guard let answer = console.ask("play again? (y/n)> ") else { return false }
            switch answer.trimmingWhitespace.lowercased() {
            case "y", "yes": return true
            case "n", "no", "q", "quit": return false
            default: console.say("please answer y or n")
            }
        }
    }
}

extension String {
    /// Without the white space at either end.
    fileprivate var trimmingWhitespace: Substring {
        var text = self[...]
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
