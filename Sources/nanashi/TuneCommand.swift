import ArgumentParser
import NanashiCommandLine
import NanashiTerminal
import NanashiTuning

/// `nanashi tune`: fits the evaluation's weights to the results of `nanashi datagen` positions,
/// or with `--spsa` tunes the search's constants by self-play.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract:
            "Fit the evaluation's weights to game results (Texel method), or tune the search by self-play.",
        discussion: """
            With FILE: prints the loss after each pass; rebuild to play with the weights written \
            to --out. With --spsa: plays pairs of games (20000 nodes a move without --nodes, \
            --movetime or --tc) between the search's constants nudged up and down (SPSA), saving the run to --state after every pair (run it again to resume) \
            and the values to --values, which 'nanashi uai --parameters' reads.
            """
    )

    @Argument(help: "Positions with results, as 'nanashi datagen' writes them (not with --spsa).")
    var file: String?

    @Option(help: "Passes over the positions.")
    var epochs: Int = 300

    @Option(help: "The Swift file to write the weights to.")
    var out: String = "AI/NanashiAI/EvaluationWeights+Tuned.swift"

    @Flag(help: "Tune the search's constants by self-play (SPSA) instead.")
    var spsa = false

    @OptionGroup(title: "SPSA")
    var options: SPSAOptions

    func validate() throws {
        if spsa && file != nil { throw ValidationError("give either FILE or --spsa, not both") }
        if !spsa && file == nil { throw ValidationError("give the positions FILE, or --spsa") }
    }

    func run() throws {
        guard let file, !spsa else { return try options.run() }
        try Tuner.run(positionsFile: file, epochs: epochs, out: out, line: StandardOutput.line)
    }
}
