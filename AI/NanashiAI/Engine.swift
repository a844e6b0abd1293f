import NanashiCore
import Synchronization

/// The Ataxx engine: an alpha-beta search with its own transposition table.
///
/// Run one search at a time on an engine; `stop()` may be called from any thread while it runs.
/// Searches limited by depth or nodes are deterministic for a given sequence of searches (the
/// table carries over from one search to the next until `newGame()`).
public final class Engine: @unchecked Sendable {
    /// The score of a won game at the root; a win in `n` plies scores `winScore - n`.
    public static let winScore = 30_000

    /// Scores beyond this size are wins or losses rather than material.
    public static let winThreshold = winScore - 1_000

    let table: TranspositionTable
    let scratch = Scratch(parameters: .standard)
    private let stopRequested = Atomic<Bool>(false)
    private let halted = Atomic<Bool>(false)

    /// The threads a search runs on (Lazy SMP: helpers share the table), from 1, the default.
    /// With one, searches limited by depth or nodes are deterministic; with more they are not.
    /// Set it between searches.
    public var threads = 1 {
        didSet { threads = min(max(threads, 1), Self.threadRange.upperBound) }
    }
    /// Runs first on each helper thread of a search (a server lowers their priority with it).
    /// Set it between searches.
    public var prepareHelperThread: (@Sendable () -> Void)?
    /// The helpers' own buffers, one per helper thread (`threads - 1`), made when first needed.
    var helperScratches: [Scratch] = []
    /// Set when the engine's own search is over: its helpers stop.
    let helpersStop = Atomic<Bool>(false)
    /// Set by `releaseHelpers()`: helpers stop, and none start, until `allowHelpers()`.
    let helpersReleased = Atomic<Bool>(false)
    /// The nodes the helpers of the search under way have visited, added as each ends.
    let helperNodes = Atomic<UInt64>(0)

    /// The search's constants (`SearchParameters.standard` unless a tuner or a file says
    /// otherwise). Set it between searches.
    public var parameters = SearchParameters.standard {
        didSet {
            for scratch in [scratch] + helperScratches { scratch.fillReductions(parameters) }
        }
    }

    /// How the engine scores the positions its search stops at.
    public let evaluation: EvaluationKind

    /// The network that scores positions when `evaluation` is `.network`.
    public let network: Network

    /// An engine with a transposition table of `hashMegabytes` MB (1 or more) that scores
    /// positions with `evaluation`: by `network` (the compiled-in one unless given) or the
    /// classic evaluation.
    public init(hashMegabytes: Int = 16, evaluation: EvaluationKind = .network, network: Network = .trained) {
        table = TranspositionTable(megabytes: hashMegabytes)
        self.evaluation = evaluation
        // Loading the compiled-in network (decoding its 4.7 MB of embedded weights, about 30 ms)
        // belongs to making the engine, not to its first search's clock.
        self.network = network
    }

    /// Searches `position` within `limits`, calling `onInfo` after each completed iteration.
    ///
    /// Always returns a legal move (`.pass` when forced) for a position that is not over; the first
    /// iteration always completes so that there is one. For a finished game it returns `.pass` with
    /// depth 0.
    public func search(
        _ position: Position, limits: SearchLimits, onInfo: (SearchInfo) -> Void = { _ in }
    ) -> SearchResult {
        clearStopRequest()
        return run(position, limits: limits, onInfo: onInfo)
    }

    /// Makes the running search return its best move so far, promptly. Safe from any thread.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    /// Stops the running search and every later one for good: each returns after its first
    /// iteration. Unlike `stop()`, a search that starts after it (and so clears `stop()`'s
    /// request) still stops: for an owner shutting down while searches may be starting.
    public func halt() {
        halted.store(true, ordering: .sequentiallyConsistent)
        stopRequested.store(true, ordering: .sequentiallyConsistent)
    }

    /// Forgets everything learned from earlier searches (the transposition table and the move
    /// ordering history), so that the next search behaves as on a fresh engine.
    public func newGame() {
        table.clear()
        scratch.clearHistory()
        for helper in helperScratches { helper.clearHistory() }
    }

    /// Clears a pending stop request before a search is started elsewhere, so that a `stop()`
    /// arriving between now and the search's start still counts.
    func armForSearch() {
        clearStopRequest()
    }

    /// Clears `stop()`'s request before a search, unless the engine is halted (a halt sets it
    /// for good), so the search's own check stays one flag. Cleared first, then the halt
    /// looked at: a `halt()` at the same moment sets the request after the clearing.
    private func clearStopRequest() {
        stopRequested.store(false, ordering: .sequentiallyConsistent)
        if halted.load(ordering: .sequentiallyConsistent) {
            stopRequested.store(true, ordering: .sequentiallyConsistent)
        }
    }

    var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// The search itself, without clearing a pending stop request.
    func run(
        _ position: Position, limits: SearchLimits, onInfo: (SearchInfo) -> Void,
        rootNoise: (amount: Int, generator: RandomSource)? = nil
    ) -> SearchResult {
        let start = ContinuousClock.now
        if position.isGameOver {
            return SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: [])
        }
        if !position.hasMove {
            return SearchResult(bestMove: .pass, score: 0, depth: 0, nodes: 0, pv: [.pass])
        }
        let budget = TimeBudget(limits: limits, emptySquares: position.empty.count)
        var search = Search(
            engine: self, start: start, budget: budget, nodeLimit: limits.nodes,
            softNodeLimit: limits.softNodes)
        if let rootNoise {
            return search.noisyChoice(
                position, depth: max(1, limits.depth ?? 1), noise: rootNoise.amount,
                generator: rootNoise.generator)
        }
        let maxDepth = limits.depth ?? Search.maxDepth
        guard threads > 1, !helpersAreReleased else {
            return search.iterate(position, maxDepth: maxDepth, onInfo: onInfo)
        }
        return withHelpers(threads - 1, searching: position, maxDepth: maxDepth, start: start) {
            search.iterate(position, maxDepth: maxDepth, onInfo: onInfo)
        }
    }
}
