import Foundation
import NanashiCore

extension Tuner {
    /// What `nanashi tune` does: reads the positions in the file at `path`, fits the scale,
    /// trains `epochs` passes, and writes the weights as Swift source to `out`, telling each
    /// step to `line` (the loss before, after every pass and at the end).
    ///
    /// - Throws: `RangeError` for `epochs` outside 1 to 100,000, the positions file's error, or
    ///   `WriteError` when `out` cannot be written.
    public static func run(positionsFile path: String, epochs: Int, out: String, line: (String) -> Void)
        throws
    {
        try (1...100_000).check(epochs, "epochs")
        let positions = try TrainingPosition.read(fromFile: path)
        var tuner = Tuner(positions: positions)
        tuner.fitScale()
        line("positions \(positions.count), loss \(tuner.loss()) with the compiled-in weights")
        tuner.train(passes: epochs) { number, loss in line("pass \(number) loss \(loss)") }
        line("loss \(tuner.loss()), scale \(tuner.scale)")
        let source = tuner.source(command: "nanashi tune \(path) --epochs \(epochs)")
        do {
            try source.write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            throw WriteError(description: "cannot write '\(out)': \(error.localizedDescription)")
        }
        line("wrote \(out)")
    }

    /// The weights could not be written: one line for the person.
    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
    }
}
