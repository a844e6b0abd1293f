import Dispatch
import NanashiCore

extension Engine {
    /// The threads a search may be given.
    public static let threadRange = 1...64

    /// Whether the helpers of the search under way are to stop.
    var helpersMustStop: Bool { helpersStop.load(ordering: .relaxed) }

    /// Runs `main` (the engine's own search, on this thread) with `count` helper searches of
    /// `position` on threads of their own, sharing the table (Lazy SMP): the helpers search
    /// without limits until `main` returns, and its result counts their nodes.
    func withHelpers(
        _ count: Int, searching position: Position, maxDepth: Int, start: ContinuousClock.Instant,
        main: () -> SearchResult
    ) -> SearchResult {
        while helperScratches.count < count { helperScratches.append(Scratch(parameters: parameters)) }
        helpersStop.store(false, ordering: .sequentiallyConsistent)
        helperNodes.store(0, ordering: .relaxed)
        let group = DispatchGroup()
        for helper in 1...count {
            // Each on a serial queue of its own: a thread outside Swift's cooperative pool.
            DispatchQueue(label: "nanashi.search.helper", qos: .userInitiated).async(group: group) {
                [unowned self] in
                var search = Search(
                    engine: self, start: start, budget: TimeBudget(limits: .infinite), nodeLimit: nil,
                    helper: helper)
                let result = search.iterate(position, maxDepth: maxDepth, onInfo: { _ in })
                helperNodes.add(result.nodes, ordering: .relaxed)
            }
        }
        var result = main()
        helpersStop.store(true, ordering: .sequentiallyConsistent)
        group.wait()
        result.nodes += helperNodes.load(ordering: .relaxed)
        return result
    }
}
