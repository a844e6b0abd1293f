import Foundation
import NanashiCore

extension Engine {
    /// The threads a search may be given.
    public static let threadRange = 1...64

    /// Whether the helpers of the search under way are to stop.
    var helpersMustStop: Bool {
        helpersStop.load(ordering: .relaxed) || helpersReleased.load(ordering: .relaxed)
    }

    /// Ends the helper threads of the search under way, or keeps the next search from starting
    /// any, until `allowHelpers()`: the engine's own search goes on alone, as deep and as long.
    /// Safe from any thread (a server takes back the threads it lent a search this way).
    public func releaseHelpers() {
        helpersReleased.store(true, ordering: .sequentiallyConsistent)
    }

    /// Lets searches run on `threads` threads again after `releaseHelpers()`.
    public func allowHelpers() {
        helpersReleased.store(false, ordering: .sequentiallyConsistent)
    }

    /// Whether `releaseHelpers()` holds.
    public var helpersAreReleased: Bool { helpersReleased.load(ordering: .sequentiallyConsistent) }

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
        let prepare = prepareHelperThread
        var result: SearchResult?
        // Each helper on a thread of its own, made for this search: outside Swift's cooperative
        // pool, and whatever `prepare` sets on it ends with it.
        Concurrently.perform(count + 1, named: "nanashi.helper") { worker in
            guard worker > 0 else {
                result = main()
                helpersStop.store(true, ordering: .sequentiallyConsistent)
                return
            }
            prepare?()
            var search = Search(
                engine: self, start: start,
                budget: TimeBudget(limits: .infinite, emptySquares: position.empty.count), nodeLimit: nil,
                helper: worker)
            let helped = search.iterate(position, maxDepth: maxDepth, onInfo: { _ in })
            helperNodes.add(helped.nodes, ordering: .relaxed)
        }
        var searched = result!
        searched.nodes += helperNodes.load(ordering: .relaxed)
        return searched
    }
}
