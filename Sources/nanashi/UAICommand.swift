import ArgumentParser
import Foundation
import NanashiAI

/// `nanashi uai`: the engine speaking the Universal Ataxx Interface on standard input and output,
/// for match runners and graphical interfaces.
struct UAICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uai",
        abstract: "Speak the Universal Ataxx Interface on standard input and output.",
        discussion: "Type 'uai' to start; 'quit' ends. Extensions: 'perft N', 'd'."
    )

    @Option(help: "The evaluation to start with: nnue (the trained network) or classic; UAI option Eval.")
    var eval: EvaluationKind = .network

    func run() async throws {
        // Each line goes out in one unbuffered write. Not print with fflush(nil): flushing every
        // stream takes the lock of standard input, which readLine holds while it waits, so the
        // search task would block until the next line came in.
        let session = UAISession(
            evaluation: eval,
            output: { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            })
        await session.serve { readLine() }
    }
}
