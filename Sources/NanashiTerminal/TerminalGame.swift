import NanashiCore

/// One game offline, in the terminal: runs a `GameLoop`, reading the people's lines from the
/// console and asking the AI (a `MoveSource`) for its moves, and carries out the commands that
/// only an offline game has (undo, hint, save, load), until the game ends or the player leaves.
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
    public var game: Game { loop.game }
    private var loop: GameLoop
    private let console: any TerminalConsole
    private let files: any GameFiles
    private let opponents: [Side: any MoveSource]
    private let hint: (Position) -> Move?
    private let tags: [String: String]

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
        loop = GameLoop(
            game: game, keyboard: Set(Side.allCases.filter { opponents[$0] == nil }), labels: labels,
            flipped: flipped, color: console.color)
        self.console = console
        self.files = files
        self.opponents = opponents
        self.tags = tags
        self.hint = hint
    }

    /// Plays until the game is over, a side resigns, or the player quits (or input ends).
    public func run() -> Ending {
        draw()
        while true {
            let effects: [GameLoop.Effect]
            switch loop.turn {
            case .over(let outcome):
                return .finished(outcome)
            case .forcedPass:
                effects = loop.forcedPass()
            case .source(let side):
                let move = opponents[side]!.move(in: game, console: console)
                console.pace()
                effects = loop.receive(move)
            case .keyboard:
                guard let line = console.ask(loop.prompt) else { return .quit }
                do {
                    effects = loop.handle(try Command(parsing: line))
                } catch {
                    console.say(error.description)
                    continue
                }
            }
            for effect in effects {
                if let ending = perform(effect) { return ending }
            }
        }
    }

    /// Carries out one effect of the loop; returns an ending when the player quits.
    private func perform(_ effect: GameLoop.Effect) -> Ending? {
        switch effect {
        case .say(let line):
            console.say(line)
        case .draw:
            draw()
        case .submit(let move):
            loop.play(move)
            draw()
        case .command(.help):
            console.say(Command.helpText)
        case .command(.undo):
            undo()
        case .command(.hint):
            console.say(hint(game.current).map { "hint: \($0)" } ?? "no hint: the game is over")
        case .command(.save(let path)):
            save(to: path)
        case .command(.load(let path)):
            load(from: path)
        case .command(.resign):
            loop.resign()
        case .command(.quit):
            return .quit
        case .command(.draw), .command(.declineDraw), .command(.acceptChallenge):
            console.say("draw offers and challenges are for online games")
        case .command:
            break
        }
        return nil
    }

    /// Takes back moves to the previous turn of a person at the keyboard.
    private func undo() {
        let count = loop.undo()
        guard count > 0 else {
            console.say("nothing to undo")
            return
        }
        console.say("took back \(count) \(count == 1 ? "move" : "moves")")
        draw()
    }

    private func save(to path: String) {
        // The game's moves are legal.
        var record = try! GameRecord(start: game.start, moves: game.moves, tags: tags)
        record.tags["Date"] = files.today
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
            loop.replace(with: try Game(start: record.start, moves: record.moves))
        } catch {
            console.say("cannot load \(path): \(error)")
            return
        }
        console.say("loaded \(game.moves.count) moves from \(path)")
        draw()
    }

    private func draw() {
        console.show(loop.view)
    }
}

extension TerminalGame {
    /// Plays games made by `makeGame`, one after another, while the person wants another after
    /// each end (quitting or the end of input stops at once).
    public static func playAgain(on console: any TerminalConsole, _ makeGame: () -> TerminalGame) {
        while true {
            let game = makeGame()
            guard case .finished(let ending) = game.run(),
                offerAnotherGame(after: ending, final: game.game.current, console: console)
            else { return }
        }
    }

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
