import Foundation
import NanashiAI
import NanashiCore
import NanashiMatch

/// Self-play games for training: each from a varied opening (a standard blocker layout or none,
/// then a few random plies), both sides searching a fixed number of nodes. Every game is the same
/// for the same seed.
public struct SelfPlay: Sendable {
    /// Nodes each move searches.
    public var nodes: UInt64
    /// Random plies played from the start position before the engine takes over.
    public var randomPlies: ClosedRange<Int> = 2...6
    /// Positions whose static score differs from the search's by more than this (centi-pieces)
    /// are in the middle of a capture sequence and are left out; `nil` keeps them all.
    public var quietMargin: Int? = 150
    /// Games are adjudicated as draws after this many plies.
    public var maxPlies = 400
    /// The evaluation both sides search with: the classic one by default, so that the network's
    /// training data does not depend on an earlier network.
    public var evaluation = EvaluationKind.classic

    /// Blocker layouts the games start from: none (twice as often as any other), and the common
    /// symmetric ones.
    static let blockerLayouts: [[String]] = [
        [], [], ["c3", "e3", "c5", "e5"], ["d3", "d5"], ["b2", "f2", "b6", "f6"], ["c4", "e4"],
        ["d2", "d6", "b4", "f4"], ["d4"], ["c2", "e2", "c6", "e6"], ["b3", "f3", "b5", "f5"],
    ]

    public init(nodes: UInt64) {
        self.nodes = nodes
    }

    /// A position of a game, with what the search thought of it.
    public struct Sample: Sendable, Equatable {
        public var position: Position
        /// The search's score for the side to move, in centi-pieces.
        public var score: Int
    }

    /// A finished game's positions worth learning from, with the game's result.
    public struct Game: Sendable {
        /// The engine's positions that were not over, had a move and no mate score.
        public var samples: [Sample]
        /// The winner, or `nil` for a draw.
        public var winner: Side?
        /// Plies played, the random ones included.
        public var plies: Int

        /// One line per sample: its FEN, the search's score for the side to move, then the
        /// result for x (`1-0`, `0-1` or `1/2-1/2`).
        public var lines: [String] {
            let result = GameRecord.result(winner: winner)
            return samples.map { "\($0.position.fen) \($0.score) \(result)" }
        }
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
        let engine = Engine(hashMegabytes: 4, evaluation: evaluation)
        var kept: [Sample] = []
        while !position.isGameOver && plies < maxPlies {
            let result = engine.search(position, limits: .nodes(nodes))
            let isQuiet = quietMargin.map { abs(Evaluation.score(of: position) - result.score) <= $0 } ?? true
            if isQuiet && abs(result.score) < Engine.winThreshold && position.hasMove {
                kept.append(Sample(position: position, score: result.score))
            }
            position = try! position.play(result.bestMove)
            plies += 1
        }
        return Game(samples: kept, winner: position.outcome?.winner, plies: plies)
    }
}

extension SelfPlay {
    /// Plays games `0..<games` but those in `skipping` on `concurrency` threads, calling `onGame`
    /// (one call at a time) with each game's number as it ends, in the order they end.
    public func run(
        games: Int, skipping: Set<Int> = [], seed: UInt64, concurrency: Int,
        onGame: @escaping @Sendable (Int, Game) -> Void
    ) {
        let queue = GameQueue(indices: (0..<games).filter { !skipping.contains($0) })
        DispatchQueue.concurrentPerform(iterations: max(1, min(concurrency, games))) { _ in
            while let index = queue.next() {
                let game = play(seed: seed, index: index)
                queue.report { onGame(index, game) }
            }
        }
    }
}

/// Hands out game numbers and serialises the reports.
private final class GameQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let indices: [Int]
    private var taken = 0

    init(indices: [Int]) { self.indices = indices }

    func next() -> Int? {
        lock.withLock {
            guard taken < indices.count else { return nil }
            taken += 1
            return indices[taken - 1]
        }
    }

    func report(_ body: () -> Void) { lock.withLock(body) }
}
