import ArgumentParser
import NanashiAI
import NanashiCommandLine
import NanashiTuning

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

    @Option(help: "The threads each search runs on, 1 to 64; UAI option Threads.")
    var threads = 1

    /// UAI option EvalFile.
    @OptionGroup var network: NetworkOption

    @Option(
        help: ArgumentHelp(
            "Search with the constants in this file (Name=value lines, as 'nanashi tune --spsa' writes).",
            valueName: "file"))
    var parameters: String?

    func validate() throws {
        guard Engine.threadRange.contains(threads) else {
            throw ValidationError("--threads must be from 1 to 64, not \(threads)")
        }
    }

    func run() async throws {
        let parameters = try parameters.map(SearchParameters.init(file:)) ?? .standard
        let network = try network.load()
        await UAISession.serveStandardStreams(
            evaluation: eval, network: network, threads: threads, parameters: parameters)
    }
}
