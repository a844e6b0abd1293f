import ArgumentParser
import Foundation
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
        try (1...100_000).check(epochs, "epochs")
        let positions = try TrainingPosition.read(fromFile: file)
        var tuner = Tuner(positions: positions)
        tuner.fitScale()
        print("positions \(positions.count), loss \(tuner.loss()) with the compiled-in weights")
        tuner.train(passes: epochs) { number, loss in print("pass \(number) loss \(loss)") }
        print("loss \(tuner.loss()), scale \(tuner.scale)")
        let source = tuner.source(command: "nanashi tune \(file) --epochs \(epochs)")
        do {
            try source.write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            throw InputError("cannot write '\(out)': \(error.localizedDescription)")
        }
        print("wrote \(out)")
    }
}
