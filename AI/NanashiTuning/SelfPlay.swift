import Foundation
import NanashiAI
import NanashiCore
import NanashiMatch

/// Self-play games for tuning: each from a varied opening (a standard blocker layout or none,
/// then a few random plies), both sides searching a fixed number of nodes. Every game is the same
/// for the same seed.
public struct SelfPlay: Sendable {
    /// Nodes each move searches.
    public var nodes: UInt64
    /// Random plies played from the start position before the engine takes over.
    public var randomPlies: ClosedRange<Int> = 2...6
    /// Positions whose static score differs from the search's by more than this (centi-pieces)
    /// are in the middle of a capture sequence and are left out.
    public var quietMargin = 150
    /// Games are adjudicated as draws after this many plies.
    public var maxPlies = 400

    /// Blocker layouts the games start from: none (twice as often as any other), and the common
    /// symmetric ones.
    static let blockerLayouts: [[String]] = [
        [], [], ["c3", "e3", "c5", "e5"], ["d3", "d5"], ["b2", "f2", "b6", "f6"], ["c4", "e4"],
        ["d2", "d6", "b4", "f4"], ["d4"], ["c2", "e2", "c6", "e6"], ["b3", "f3", "b5", "f5"],
    ]

    public init(nodes: UInt64) {
        self.nodes = nodes
    }

    /// A finished game's positions worth learning from, each with the game's result.
    public struct Game: Sendable {
        /// One line per position: its FEN, then the result for x (`1-0`, `0-1` or `1/2-1/2`).
        public var lines: [String]
        /// Plies played, the random ones included.
        public var plies: Int
    }

    /// Plays game number `index` of the run seeded with `seed`.
    public func play(seed: UInt64, index: Int) -> Game {
        let random = RandomSource(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var position = Openings.startPosition(
            blockers: Self.blockerLayouts[random.upTo(Self.blockerLayouts.count - 1)])
        var plies = 0
        let opening = randomPlies.lowerBound + random.upTo(randomPlies.count - 1)
        while plies < opening, !position.isGameOver {
            let moves = position.legalMoves()
            position = try! position.play(moves[random.upTo(moves.count - 1)])
            plies += 1
        }
        let engine = Engine(hashMegabytes: 4)
        var kept: [String] = []
        while !position.isGameOver && plies < maxPlies {
            let result = engine.search(position, limits: .nodes(nodes))
            let isQuiet =
                abs(result.score) < Engine.winThreshold
                && abs(Evaluation.score(of: position) - result.score) <= quietMargin
            if isQuiet && position.hasMove { kept.append(position.fen) }
            position = try! position.play(result.bestMove)
            plies += 1
        }
        let resultText = GameRecord.result(winner: position.outcome?.winner)
        return Game(lines: kept.map { "\($0) \(resultText)" }, plies: plies)
    }
}

extension SelfPlay {
    /// Plays games `0..<games` on `concurrency` threads, calling `onGame` (one call at a time) as
    /// each ends, in the order they end.
    public func run(games: Int, seed: UInt64, concurrency: Int, onGame: @escaping @Sendable (Game) -> Void) {
        let queue = GameQueue(count: games)
        DispatchQueue.concurrentPerform(iterations: max(1, min(concurrency, games))) { _ in
            while let index = queue.next() {
                let game = play(seed: seed, index: index)
                queue.report { onGame(game) }
            }
        }
    }
}

/// Hands out game numbers and serialises the reports.
private final class GameQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var taken = 0

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.withLock {
            guard taken < count else { return nil }
            taken += 1
            return taken - 1
        }
    }

    func report(_ body: () -> Void) { lock.withLock(body) }
}
