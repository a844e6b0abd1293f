import NanashiCore
import NanashiProtocol

/// The pool of seeks, and who to pair: players at the same time control from the same layout, closest ratings
/// first, the accepted gap widening the longer either of them has waited.
///
/// A value type with time passed in, so pairing is tested without waiting.
struct Matchmaker {
    struct Seek: Equatable {
        var playerID: Int64
        var rating: Double
        var control: TimeControl
        var since: ContinuousClock.Instant
        /// Where the game is to start: a seek pairs only with one of the same layout.
        var layout: Layout = .standard
    }

    /// The gap accepted at once.
    var gap: Double
    /// How much the gap widens per second of waiting.
    var widening: Double
    /// Seeks in the order they came.
    private(set) var seeks: [Seek] = []

    init(gap: Double, widening: Double) {
        self.gap = gap
        self.widening = widening
    }

    func isSeeking(_ playerID: Int64) -> Bool { seeks.contains { $0.playerID == playerID } }

    mutating func add(_ seek: Seek) throws(ProtocolError) {
        guard !isSeeking(seek.playerID) else {
            throw ProtocolError(.alreadySeeking, "you are already seeking")
        }
        seeks.append(seek)
    }

    /// Removes a player's seek; returns whether there was one.
    @discardableResult
    mutating func remove(_ playerID: Int64) -> Bool {
        let before = seeks.count
        seeks.removeAll { $0.playerID == playerID }
        return seeks.count != before
    }

    /// The rating gap a seek accepts after waiting until `now`.
    func window(_ seek: Seek, now: ContinuousClock.Instant) -> Double {
        return gap + widening * max((now - seek.since).inSeconds, 0)
    }

    /// Takes out every pair that can be made now, longest waiting first.
    ///
    /// Two seeks match when the gap between them is within the window of the one that has
    /// waited longer: whoever waits long enough is paired with the next player who seeks.
    /// `allowed` may rule pairs out (a node pairs only pairs with a seeker of its own); a seek
    /// left unpaired by it stays.
    ///
    /// Seeks pair only within their time control and layout, so each such pool is paired on
    /// its own: thousands of seeks at as many time controls, which never pair, cost a pass one
    /// look each rather than one for every other seek.
    mutating func pairs(
        now: ContinuousClock.Instant, allowed: (Seek, Seek) -> Bool = { _, _ in true }
    ) -> [(Seek, Seek)] {
        var pools: [Pool: [Int]] = [:]
        for (index, seek) in seeks.enumerated() {
            pools[Pool(control: seek.control, layout: seek.layout), default: []].append(index)
        }
        var made: [(first: Int, second: Int)] = []
        for members in pools.values where members.count > 1 {
            made += pairs(among: members, now: now, allowed: allowed)
        }
        // In the order one pass over all the seeks would make them.
        made.sort { $0.first < $1.first }
        let paired = made.map { (seeks[$0.first], seeks[$0.second]) }
        let taken = Set(made.flatMap { [$0.first, $0.second] })
        seeks = seeks.indices.filter { !taken.contains($0) }.map { seeks[$0] }
        return paired
    }

    /// The seeks that may pair with one another: one time control, one layout.
    private struct Pool: Hashable {
        var control: TimeControl
        var layout: Layout
    }

    /// The pairs made among `members` (indices of `seeks` of one pool, in the order they came),
    /// each seek in turn taking the closest it may meet.
    private func pairs(
        among members: [Int], now: ContinuousClock.Instant, allowed: (Seek, Seek) -> Bool
    ) -> [(first: Int, second: Int)] {
        var made: [(first: Int, second: Int)] = []
        var remaining = members
        // Each window once per pass: the pass compares every seek of the pool with every other.
        var windows = remaining.map { window(seeks[$0], now: now) }
        var index = 0
        while index < remaining.count {
            let seek = seeks[remaining[index]]
            var best: Int?
            var bestGap = Double.infinity
            for other in remaining.indices where other != index {
                let candidate = seeks[remaining[other]]
                let gap = abs(candidate.rating - seek.rating)
                // Strictly closer only: of equal gaps, the longest waiting wins.
                guard gap < bestGap, gap <= max(windows[index], windows[other]),
                    candidate.playerID != seek.playerID,
                    allowed(seek, candidate)
                else { continue }
                best = other
                bestGap = gap
            }
            if let best {
                made.append((remaining[index], remaining[best]))
                for taken in [max(index, best), min(index, best)] {
                    remaining.remove(at: taken)
                    windows.remove(at: taken)
                }
            } else {
                index += 1
            }
        }
        return made
    }
}
