import ArgumentParser
import NanashiTuning

/// `nanashi tune`: fits the evaluation's weights to the results of `nanashi datagen` positions.
struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Fit the evaluation's weights to game results (Texel method); write them as Swift source.",
        discussion: "Prints the loss after each pass. Rebuild to play with the weights written to --out."
    )

    @Argument(help: "Positions with results, as 'nanashi datagen' writes them.")
    var file: String

    @Option(help: "Passes over the positions.")
    var epochs: Int = 300

    @Option(help: "The Swift file to write the weights to.")
    var out: String = "AI/NanashiAI/EvaluationWeights+Tuned.swift"

    func run() throws {
        try Tuner.run(positionsFile: file, epochs: epochs, out: out) { print($0) }
    }
}
