import ArgumentParser
import NanashiAI
import NanashiCore

/// `nanashi bench`: searches fixed positions to a fixed depth on a fresh engine. The total node
/// count is a signature of the search (it changes exactly when the search's behaviour does); the
/// speed is a benchmark.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Search fixed positions to a fixed depth; print total nodes and nodes per second.",
        discussion: "The last line reads 'nodes N time T ms nps R'. Build with -c release to measure speed."
    )

    /// Openings, middle games with blockers, and endings where passing and locking matter.
    static let positions = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x5o/7/3-3/2-1-2/3-3/7/o5x o 0 1",
        "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8",
        "7/1xxo3/2xooo1/1xxxo2/2oox2/3x3/7 o 0 14",
        "xxxxooo/xxxoo2/xxooo2/xx-o-x1/ooxxx2/ooxx3/oox4 x 1 24",
        "ooooooo/ooooooo/xxxxxxx/xxxxxxx/xxxx3/xxx4/ooo4 x 0 30",
        "x-o4/---4/---4/7/7/7/7 x 0 1",
    ]

    @Option(help: "The depth of each search (1 to 20).")
    var depth: Int = 9

    @Option(help: "Transposition table size in MB.")
    var hash: Int = 16

    @Option(help: "The evaluation: nnue (the trained network) or classic.")
    var eval: EvaluationKind = .network

    /// Checks the options; reported as input errors (one line, exit code 2).
    func check() throws {
        try (1...20).check(depth, "depth")
        try (1...4096).check(hash, "hash", unit: "MB")
    }

    func run() throws {
        try check()
        var total: UInt64 = 0
        var elapsed = Duration.zero
        for fen in Self.positions {
            let position = try Position(fen: fen)
            let engine = Engine(hashMegabytes: hash, evaluation: eval)
            let start = ContinuousClock.now
            let result = engine.search(position, limits: .depth(depth))
            elapsed += ContinuousClock.now - start
            total += result.nodes
            print("\(fen): bestmove \(result.bestMove) score \(result.score) nodes \(result.nodes)")
            flushOutput()
        }
        let milliseconds = max(elapsed.wholeMilliseconds, 1)
        print("nodes \(total) time \(milliseconds) ms nps \(total * 1000 / UInt64(milliseconds))")
    }
}
