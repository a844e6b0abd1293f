import ArgumentParser
import NanashiCommandLine
import NanashiCore
import NanashiTerminal

/// `nanashi perft`: counts move sequences to each depth, the standard move generator check.
struct PerftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perft",
        abstract: "Count the move sequences from a position, depth by depth.",
        discussion: "Prints 'depth D nodes N time T ms nps R' for each depth from 1 to --depth."
    )

    @OptionGroup var fenOption: FENOption

    @Option(help: "The deepest depth to count (1 to 12).")
    var depth: Int = 5

    @Flag(help: "First print each legal move with the count of its subtree at --depth.")
    var divide = false

    func run() throws {
        let position = try fenOption.position()
        try position.perftReport(to: depth, divide: divide, line: StandardOutput.line)
    }
}
