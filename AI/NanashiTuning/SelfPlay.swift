import Foundation
import NanashiAI
import NanashiCore
import NanashiMatch

/// Self-play games for training: each from a varied opening (random plies from the standard start,
/// or now and then from a common blocker layout), both sides searching with soft and hard node
/// limits, decided games adjudicated. Every game is the same for the same seed.
public struct SelfPlay: Sendable {
    /// Nodes after which a move's search starts no further iteration.
    public var nodes: UInt64
    /// Nodes at which a move's search stops, in the middle of an iteration if need be.
    public var hardNodes: UInt64
    /// Random plies played from the start position before the engine takes over.
    public var randomPlies: ClosedRange<Int> = 8...16
    /// One game in this many starts from one of the common blocker layouts (chosen evenly), the
    /// others from the empty board; `nil` never uses blockers.
    public var blockerEvery: Int? = 5
    /// Openings whose searched score is further from even than this (centi-pieces) are drawn
    /// again, up to `openingTries` times; `nil` keeps every opening.
    public var openingWindow: Int? = 300
    /// How many openings are drawn at most before the last one is kept whatever its score.
    public var openingTries = 16
    /// Positions whose static score differs from the search's by more than this (centi-pieces)
    /// are in the middle of a capture sequence and are left out; `nil` keeps them all.
    public var quietMargin: Int? = 150
    /// Games are adjudicated as draws after this many plies.
    public var maxPlies = 400
    /// When a game is decided before its end: `nil` plays every game out.
    public var adjudication: Adjudication? = Adjudication()
    /// The evaluation both sides search with: the classic one by default, so that the network's
    /// training data does not depend on an earlier network.
    public var evaluation = EvaluationKind.classic
    /// The network both sides score with when `evaluation` is the network's.
    public var network = Network.trained

    /// A game is won for a side once the search finds a forced win for it, or once its score
    /// stays at `score` or more for `plies` plies in a row (each side's search agreeing).
    public struct Adjudication: Sendable, Hashable {
        public var score: Int
        public var plies: Int

        public init(score: Int = 1_500, plies: Int = 4) {
            self.score = score
            self.plies = plies
        }
    }

    /// The common blocker layouts the games with blockers start from: the core's, from `square`
    /// to `flanks` (the first eight blocker layouts of `Layout.all`).
    static let blockerLayouts = Array(Layout.all[1...8])

    /// Self-play whose moves start no iteration past `nodes` nodes and stop at `hardNodes`
    /// (twice `nodes` when not given).
    public init(nodes: UInt64, hardNodes: UInt64? = nil) {
        self.nodes = nodes
        self.hardNodes = max(nodes, hardNodes ?? nodes * 2)
    }

    /// Self-play as `nanashi datagen`'s options ask for it: `nodes` from 1 to 100,000,000, and
    /// `hardNodes`, if given, at least as many; `everyPosition` keeps the positions that are not
    /// quiet too (no `quietMargin`), and both sides search with `evaluation`.
    ///
    /// - Throws: `Datagen.Problem` naming the option at fault.
    public init(
        checkingNodes nodes: UInt64, hardNodes: UInt64?, everyPosition: Bool = false,
        evaluation: EvaluationKind = .classic
    ) throws(Datagen.Problem) {
        do {
            try (1...100_000_000).check(Int(clamping: nodes), "nodes")
        } catch {
            throw Datagen.Problem(description: error.description)
        }
        if let hardNodes, hardNodes < nodes {
            throw Datagen.Problem(description: "bad hard nodes \(hardNodes): use at least --nodes (\(nodes))")
        }
        self.init(nodes: nodes, hardNodes: hardNodes)
        if everyPosition { quietMargin = nil }
        self.evaluation = evaluation
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

        /// The samples as packed records (`PackedSample`), one after another.
        public var packed: [UInt8] {
            samples.flatMap { PackedSample(position: $0.position, score: $0.score, winner: winner).bytes }
        }
    }

    /// Plays game number `index` of the run seeded with `seed`.
    public func play(seed: UInt64, index: Int) -> Game {
        let random = RandomSource(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let engine = Engine(hashMegabytes: 4, evaluation: evaluation, network: network)
        let limits = SearchLimits.nodes(soft: nodes, hard: hardNodes)
        var (position, plies) = opening(random: random, engine: engine, limits: limits)
        engine.newGame()
        var kept: [Sample] = []
        var leader: (side: Side, plies: Int)?
        // The winner adjudication found, if it decided the game.
        var adjudicated: Side?
        while !position.isGameOver && plies < maxPlies {
            let result = engine.search(position, limits: limits)
            let isQuiet = quietMargin.map { abs(Evaluation.score(of: position) - result.score) <= $0 } ?? true
            if isQuiet && abs(result.score) < Engine.winThreshold && position.hasMove {
                kept.append(Sample(position: position, score: result.score))
            }
            if let adjudication, position.hasMove {
                let side = position.sideToMove
                if result.score >= Engine.winThreshold {
                    adjudicated = side
                } else if result.score <= -Engine.winThreshold {
                    adjudicated = side.opponent
                } else if abs(result.score) >= adjudication.score {
                    let ahead = result.score > 0 ? side : side.opponent
                    let run = leader?.side == ahead ? leader!.plies + 1 : 1
                    leader = (ahead, run)
                    if run >= adjudication.plies { adjudicated = ahead }
                } else {
                    leader = nil
                }
                if adjudicated != nil { break }
            }
            position = try! position.play(result.bestMove)
            plies += 1
        }
        let winner = adjudicated ?? position.outcome?.winner
        return Game(samples: kept, winner: winner, plies: plies)
    }

    /// The position the engine takes over from, and the random plies that led to it.
    func opening(random: RandomSource, engine: Engine, limits: SearchLimits) -> (Position, Int) {
        let start: Position
        if let blockerEvery, random.upTo(blockerEvery - 1) == 0 {
            start = Self.blockerLayouts[random.upTo(Self.blockerLayouts.count - 1)].position
        } else {
            start = .start
        }
        var tries = 0
        while true {
            tries += 1
            var position = start
            var plies = 0
            let count = randomPlies.lowerBound + random.upTo(randomPlies.count - 1)
            while plies < count, !position.isGameOver {
                let moves = position.legalMoves()
                position = try! position.play(moves[random.upTo(moves.count - 1)])
                plies += 1
            }
            guard let openingWindow, tries < openingTries, !position.isGameOver else {
                return (position, plies)
            }
            if abs(engine.search(position, limits: limits).score) <= openingWindow {
                return (position, plies)
            }
        }
    }
}

extension SelfPlay {
    /// Plays games `0..<games` but those in `skipping` on `concurrency` threads (at the caller's
    /// niceness: `Concurrently`), calling `onGame` (one call at a time) with each game's number
    /// as it ends, in the order they end.
    public func run(
        games: Int, skipping: Set<Int> = [], seed: UInt64, concurrency: Int,
        onGame: @escaping @Sendable (Int, Game) -> Void
    ) {
        let queue = GameQueue(indices: (0..<games).filter { !skipping.contains($0) })
        Concurrently.perform(max(1, min(concurrency, games))) { _ in
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
