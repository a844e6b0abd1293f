import ArgumentParser
import NanashiAI
import NanashiCommandLine
import NanashiCore
import NanashiTerminal

/// `nanashi bench`: searches fixed positions to a fixed depth on a fresh engine. The total node
/// count is a signature of the search (it changes exactly when the search's behaviour does); the
/// speed is a benchmark.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Search fixed positions to a fixed depth; print total nodes and nodes per second.",
        discussion: "The last line reads 'nodes N time T ms nps R'. Build with -c release to measure speed."
    )

    @Option(help: "The depth of each search (1 to 20).")
    var depth: Int = 9

    @Option(help: "Transposition table size in MB.")
    var hash: Int = 16

    @Option(help: "The evaluation: nnue (the trained network) or classic.")
    var eval: EvaluationKind = .network

    @OptionGroup var network: NetworkOption

    func run() throws {
        let network = try network.load()
        try Bench.run(
            depth: depth, hashMegabytes: hash, evaluation: eval, network: network, line: StandardOutput.line)
    }
}
