import NanashiCore

/// The search's working memory, allocated once per engine: move lists per ply, the principal
/// variation table, killer moves, the history table, and the board's ring tables.
///
/// Plain buffers rather than arrays because the search reads and writes them at every node and
/// must not pay for reference counting, bounds checks or exclusivity checks there.
final class Scratch {
    static let maxPly = 128
    static let maxMoves = MoveGenerator.maximumMoves

    let moves = UnsafeMutablePointer<UInt16>.allocate(capacity: maxPly * maxMoves)
    let scores = UnsafeMutablePointer<Int32>.allocate(capacity: maxPly * maxMoves)
    let pv = UnsafeMutablePointer<UInt16>.allocate(capacity: maxPly * maxPly)
    let pvLength = UnsafeMutablePointer<Int>.allocate(capacity: maxPly + 1)
    let killers = UnsafeMutablePointer<UInt16>.allocate(capacity: maxPly * 2)
    /// Indexed by `PackedMove` (origin and destination), 4096 entries.
    let history = UnsafeMutablePointer<Int32>.allocate(capacity: 4096)
    /// The nodes spent under each root move in the current search, indexed like `history`.
    let rootNodes = UnsafeMutablePointer<UInt64>.allocate(capacity: 4096)
    /// The static score of the position at each ply of the line being searched (`Int.min` after a
    /// pass), to tell whether the side to move is doing better than two plies before.
    let staticScores = UnsafeMutablePointer<Int>.allocate(capacity: maxPly + 1)
    /// Late move reductions by depth and move number, both below 64.
    let reductions = UnsafeMutablePointer<Int8>.allocate(capacity: 64 * 64)
    /// The evaluation's weights (`EvaluationWeights.flattened`).
    let weights = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * EvaluationTerm.count)
    /// The network's accumulator for each ply (`Network.accumulatorLanes` vectors each).
    let accumulators = UnsafeMutablePointer<Network.Lanes>.allocate(
        capacity: (maxPly + 1) * Network.accumulatorLanes)
    /// x's pieces then o's of the position at each ply: what a deferred accumulator update needs.
    let pieces = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * (maxPly + 1))
    /// Whether the accumulator of each ply matches its `pieces` (updates wait until a score is
    /// needed, so that nodes cut off by the table never pay for one).
    let accumulatorIsCurrent = UnsafeMutablePointer<Bool>.allocate(capacity: maxPly + 1)

    init() {
        let flattened = EvaluationWeights.tuned.flattened
        precondition(flattened.count == 2 * EvaluationTerm.count)
        self.weights.initialize(from: flattened, count: flattened.count)
        // Ataxx has many moves a node and few good ones: the divisor was tuned by matches
        // (1.3 against 2.4: +112 Elo at 200,000 nodes a move; 1.1 and 1.6 did worse than 1.3).
        for depth in 0..<64 {
            for number in 0..<64 {
                let value =
                    depth == 0 || number == 0
                    ? 0 : 0.7 + log(Double(depth)) * log(Double(number)) / 1.3
                reductions[depth * 64 + number] = Int8(max(0, min(32, Int(value))))
            }
        }
        clearHistory()
        rootNodes.initialize(repeating: 0, count: 4096)
        pvLength.initialize(repeating: 0, count: Self.maxPly + 1)
        pieces.initialize(repeating: 0, count: 2 * (Self.maxPly + 1))
        accumulatorIsCurrent.initialize(repeating: false, count: Self.maxPly + 1)
        staticScores.initialize(repeating: Int.min, count: Self.maxPly + 1)
    }

    deinit {
        moves.deallocate()
        scores.deallocate()
        pv.deallocate()
        pvLength.deallocate()
        killers.deallocate()
        history.deallocate()
        rootNodes.deallocate()
        reductions.deallocate()
        weights.deallocate()
        accumulators.deallocate()
        pieces.deallocate()
        accumulatorIsCurrent.deallocate()
        staticScores.deallocate()
    }

    func clearHistory() {
        history.initialize(repeating: 0, count: 4096)
        killers.initialize(repeating: 0, count: Self.maxPly * 2)
    }
}

/// Natural logarithm, by the series around 1 after scaling into [0.5, 1), so that the AI needs no
/// C library; only used to fill the reduction table.
private func log(_ value: Double) -> Double {
    precondition(value > 0)
    var x = value
    var exponent = 0.0
    while x >= 1 {
        x /= 2
        exponent += 1
    }
    while x < 0.5 {
        x *= 2
        exponent -= 1
    }
    // ln(x) = 2 atanh((x - 1) / (x + 1))
    let y = (x - 1) / (x + 1)
    var term = y
    var sum = 0.0
    var power = 1.0
    for _ in 0..<40 {
        sum += term / power
        term *= y * y
        power += 2
    }
    return 2 * sum + exponent * 0.693_147_180_559_945_3
}
