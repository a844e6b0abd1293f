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

    init(parameters: SearchParameters) {
        let flattened = EvaluationWeights.tuned.flattened
        precondition(flattened.count == 2 * EvaluationTerm.count)
        self.weights.initialize(from: flattened, count: flattened.count)
        fillReductions(parameters)
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

    /// Works out the late move reductions of `parameters` for every depth and move number.
    func fillReductions(_ parameters: SearchParameters) {
        for depth in 0..<64 {
            for number in 0..<64 {
                reductions[depth * 64 + number] = Int8(parameters.reduction(depth: depth, number: number))
            }
        }
    }

    func clearHistory() {
        history.initialize(repeating: 0, count: 4096)
        killers.initialize(repeating: 0, count: Self.maxPly * 2)
    }
}
