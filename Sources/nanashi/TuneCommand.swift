import ArgumentParser
import NanashiAI
import NanashiCommandLine
import NanashiCore
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

/// The options of `nanashi tune --spsa`.
struct SPSAOptions: ParsableArguments {
    @Option(help: "Pairs of games in the run.")
    var iterations = 2_000

    @OptionGroup var play: EngineGameOptions

    @Option(help: "Seed of each pair's nudges and opening (default: random).")
    var seed: UInt64?

    @Option(help: "The run, saved after every pair; an existing one is resumed.")
    var state = "spsa-run.json"

    @Option(help: "The values so far, as Name=value lines.")
    var values = "spsa-values.txt"

    @Option(help: "Start from the constants in this file (default: the engine's).")
    var parameters: String?

    @Option(help: "The learning rate at the last iteration, for a new run (a saved one keeps its own).")
    var rate = 0.002

    func run() throws {
        try (1...1_000_000).check(iterations, "iterations")
        guard rate > 0, rate <= 1 else {
            throw ValidationError("--rate must be above 0 and at most 1, not \(rate)")
        }
        let games = try SPSA.games(
            nodes: play.nodes, movetime: play.movetime, tc: play.tc, concurrency: play.concurrency,
            openings: play.openings, seed: seed)
        let start = try parameters.map(SearchParameters.init(file:)) ?? .standard
        let (run, resumed) = try SPSA.resuming(state, start: start, iterations: iterations, rate: rate)
        StandardOutput.line(
            resumed ? "resuming \(state): \(run.completed) of \(run.iterations) done" : "new run: \(state)")
        let (state, values) = (state, values)
        let finished = try run.run(
            games, save: { try $0.save(to: state, values: values) }, line: StandardOutput.line)
        StandardOutput.line(
            "done: \(finished.completed) iterations, balance \(finished.balance); values in \(values)")
    }
}
