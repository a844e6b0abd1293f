import ArgumentParser
import NanashiAI
import NanashiCommandLine
import NanashiTerminal
import NanashiTuning

/// `nanashi datagen`: self-play positions with the search's scores and their games' results, for
/// `nanashi tune` and the network's trainer.
struct DatagenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datagen",
        abstract:
            "Play self-play games at a fixed node count and write their positions with scores and results.",
        discussion: """
            Appends one line per position to --out: its FEN, the search's score for the side to move \
            (centi-pieces), then the game's result for x (1-0, 0-1 or 1/2-1/2); with --format binary, \
            one 16-byte record per position instead (docs/ENGINE.md). A position already in \
            the file is not written again. Each game is written when it ends and its number noted in \
            --out's journal (the same name with '.games' added), so a run stopped by Ctrl-C and started \
            again with the same options plays only the games it had not finished. A progress line goes \
            to standard error.
            """
    )

    @Option(help: "Games to play (game numbers 0 to N-1 of the seed).")
    var games: Int

    @Option(help: "The file to append the positions to.")
    var out: String

    @Option(help: "Nodes after which a move's search starts no further iteration.")
    var nodes: UInt64 = 5000

    @Option(help: "Nodes at which a move's search stops (default: twice --nodes).")
    var hardNodes: UInt64?

    @Option(help: "text (a FEN, a score and a result per line) or binary (16-byte records).")
    var format: Datagen.Format = .text

    @Option(help: "Seed of the random opening plies (the same seed plays the same games).")
    var seed: UInt64 = 1

    @Option(help: "Games played at the same time.")
    var concurrency: Int = 1

    @Flag(help: "Keep every position, not only the quiet ones the tuner wants (for the network).")
    var everyPosition = false

    @Option(help: "The evaluation both sides play with: classic (needs no network) or nnue.")
    var eval: EvaluationKind = .classic

    /// With --eval nnue.
    @OptionGroup var network: NetworkOption

    func run() throws {
        var selfPlay = try SelfPlay(
            checkingNodes: nodes, hardNodes: hardNodes, everyPosition: everyPosition, evaluation: eval)
        selfPlay.network = try network.load()
        try Datagen.run(
            selfPlay, games: games, seed: seed, concurrency: concurrency, out: out, format: format,
            report: StandardOutput.progress)
        StandardOutput.progress("\n")
    }
}

extension Datagen.Format: ExpressibleByArgument {}
