import ArgumentParser
import NanashiCommandLine
import NanashiCore

/// `nanashi show`: plays moves from a position and prints the board, FEN, legal moves and outcome.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Play moves from a position and show the result.",
        discussion: """
            Prints the board, then 'fen <FEN>', 'moves <legal moves>', and 'outcome <x|o|draw> <reason>' \
            when the game is over.
            """
    )

    @OptionGroup var fenOption: FENOption

    @Argument(help: "Moves to play, like f2, a7c5 or 0000.")
    var moves: [String] = []

    func run() throws {
        print(try fenOption.position().replaying(moves).position.shown, terminator: "")
    }
}
