import ArgumentParser
import NanashiAI
import NanashiCore
import NanashiTerminal

/// `nanashi play`: a person against the AI.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play against the AI at this terminal.",
        discussion: """
            Type a square with your piece to see its moves, then the destination; or a full move \
            (c3, a1c3). Type help for the commands (undo, hint, save, load, flip, resign, quit). \
            With piped input, one move or command per line.
            """
    )

    /// Which side the person plays.
    enum SideChoice: String, ExpressibleByArgument, CaseIterable {
        case x, o, random
    }

    @Option(
        help:
            "The AI's strength, \(Level.range.lowerBound) (beginner) to \(Level.range.upperBound) (strongest)."
    )
    var level: Int = 6

    @Option(help: "Your side: x (moves first), o, or random.")
    var side: SideChoice = .x

    @OptionGroup var fenOption: FENOption

    @Option(help: "Seed for the AI's randomness and the random side, for repeatable games.")
    var seed: UInt64?

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var screenOption: ScreenOption

    func run() throws {
        let start = try fenOption.position()
        guard let level = Level(level) else {
            throw InputError("bad level \(level): use \(Level.range.lowerBound) to \(Level.range.upperBound)")
        }
        let standard = StandardConsole(noColor: colorOption.noColor)
        let fullScreen = screenOption.fullScreen(
            color: standard.color, title: "nanashi play: against the AI at level \(level.number)")
        defer { fullScreen?.close() }
        let console: any TerminalConsole = fullScreen ?? standard
        let random = seed.map { RandomSource(seed: $0) } ?? RandomSource()
        let engine = Engine()
        let opponent = AIOpponent(engine: engine, level: level, random: random)
        let adviser = Engine(hashMegabytes: 4)
        TerminalGame.playAgain(on: console) {
            let person: Side
            switch side {
            case .x: person = .x
            case .o: person = .o
            case .random: person = random.next() & 1 == 0 ? .x : .o
            }
            engine.newGame()
            console.say(
                "you play \(person) against the AI at level \(level.number); type help for the commands")
            return TerminalGame(
                game: Game(start: start), console: console, files: LocalFiles(),
                opponents: [person.opponent: opponent],
                labels: [person: "you", person.opponent: opponent.label], flipped: false,
                tags: [
                    "Event": "nanashi play",
                    person == .x ? "White" : "Black": "you",
                    person == .x ? "Black" : "White": "nanashi \(opponent.label)",
                ],
                hint: adviser.hint(for:))
        }
    }
}
