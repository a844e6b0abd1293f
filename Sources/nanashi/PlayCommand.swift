import ArgumentParser
import NanashiAI
import NanashiCommandLine
import NanashiCore
import NanashiTerminal

/// `nanashi play`: a person against the AI.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play against the AI at this terminal.",
        discussion: LocalPlay.howToMove
            + " Type help for the commands (undo, hint, save, load, flip, resign, quit)."
            + " With piped input, one move or command per line.\n\n"
            + "The levels' strengths in Elo, roughly (level 1 is 500 by convention):\n" + LocalPlay.levelTable
    )

    @Option(
        help:
            "The AI's strength, 1 (beginner, \(Level.all[0].about)) to \(Level.strongest.number) (strongest, \(Level.strongest.about)); \(Level.suggested.number) is \(Level.suggested.about)."
    )
    var level: Int = Level.suggested.number

    @Option(help: "Your side: x (moves first), o, or random.")
    var side: LocalPlay.SideChoice = .x

    @OptionGroup var fenOption: FENOption

    @Option(help: "Seed for the AI's randomness and the random side, for repeatable games.")
    var seed: UInt64?

    @OptionGroup var displayOptions: DisplayOptions

    func run() throws {
        let start = try fenOption.position()
        let level = try Level(checking: level, "level")
        displayOptions.display.run(
            title: "nanashi play: against the AI at level \(level.number) (\(level.about))"
        ) {
            console in
            LocalPlay.againstAI(from: start, level: level, side: side, seed: seed, console: console)
        }
    }
}

extension LocalPlay.SideChoice: ExpressibleByArgument {}
