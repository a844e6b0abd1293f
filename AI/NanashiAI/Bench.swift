import NanashiCore

/// `nanashi bench`: fixed positions searched to a fixed depth, each on a fresh engine. The total
/// node count is a signature of the search (it changes exactly when the search's behaviour does);
/// the speed is a benchmark.
public enum Bench {
    /// Openings, middle games with blockers, and endings where passing and locking matter.
    public static let positions = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
        "x5o/7/3-3/2-1-2/3-3/7/o5x o 0 1",
        "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8",
        "7/1xxo3/2xooo1/1xxxo2/2oox2/3x3/7 o 0 14",
        "xxxxooo/xxxoo2/xxooo2/xx-o-x1/ooxxx2/ooxx3/oox4 x 1 24",
        "ooooooo/ooooooo/xxxxxxx/xxxxxxx/xxxx3/xxx4/ooo4 x 0 30",
        "x-o4/---4/---4/7/7/7/7 x 0 1",
    ]

    /// Searches each position to `depth` on a fresh engine (scoring with `network` when
    /// `evaluation` is the network's), calling `line` with its result (`FEN: bestmove M score S
    /// nodes N`), then with the total: `nodes N time T ms nps R`.
    ///
    /// - Throws: `RangeError` for a `depth` not 1 to 20 or a table not 1 to 4096 MB, before any search.
    public static func run(
        depth: Int, hashMegabytes: Int, evaluation: EvaluationKind, network: Network = .trained,
        line: (String) -> Void
    ) throws(RangeError) {
        try (1...20).check(depth, "depth")
        try (1...4096).check(hashMegabytes, "hash", unit: "MB")
        var total: UInt64 = 0
        var elapsed = Duration.zero
        for fen in Self.positions {
            // The positions are written above, each a valid FEN.
            let position = try! Position(fen: fen)
            let engine = Engine(hashMegabytes: hashMegabytes, evaluation: evaluation, network: network)
            let start = ContinuousClock.now
            let result = engine.search(position, limits: .depth(depth))
            elapsed += ContinuousClock.now - start
            total += result.nodes
            line("\(fen): bestmove \(result.bestMove) score \(result.score) nodes \(result.nodes)")
        }
        let milliseconds = max(elapsed.wholeMilliseconds, 1)
        line("nodes \(total) time \(milliseconds) ms nps \(total * 1000 / UInt64(milliseconds))")
    }
}
