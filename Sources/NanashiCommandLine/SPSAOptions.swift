import ArgumentParser
import NanashiAI
import NanashiCore
import NanashiTerminal
import NanashiTuning

/// The options of `nanashi tune --spsa`.
public struct SPSAOptions: ParsableArguments {
    public init() {}

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

    /// Runs the tuner (or resumes its run), writing its lines to standard output.
    public func run() throws {
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
