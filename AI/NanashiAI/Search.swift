import CSearchMemory
import NanashiCore

/// One search: negamax alpha-beta with principal variation search, iterative deepening,
/// aspiration windows, the transposition table, move ordering (table move, captures, killers,
/// history with a malus for the moves that failed), reverse futility pruning, and late move
/// reductions and pruning; positions are scored by the network, its accumulator updated move by
/// move when a score needs it, or by the classic evaluation.
///
/// A value type working on the engine's buffers, so that its counters live in registers and the
/// recursion pays no reference counting or exclusivity checks.
struct Search {
    static let maxDepth = 64
    static let infinity = 32_000

    unowned(unsafe) let engine: Engine
    let entries: UnsafeMutablePointer<TranspositionTable.Entry>
    let tableMask: Int
    let moveStack: UnsafeMutablePointer<UInt16>
    let scoreStack: UnsafeMutablePointer<Int32>
    let pvTable: UnsafeMutablePointer<UInt16>
    let pvLength: UnsafeMutablePointer<Int>
    let killers: UnsafeMutablePointer<UInt16>
    let history: UnsafeMutablePointer<Int32>
    let rootNodes: UnsafeMutablePointer<UInt64>
    let staticScores: UnsafeMutablePointer<Int>
    let reductions: UnsafeMutablePointer<Int8>
    let weights: UnsafePointer<Int32>
    let parameters: SearchParameters
    /// Whether positions are scored by the network rather than the classic evaluation.
    let usesNetwork: Bool
    /// The network's update and score (a value: no reference counting at each call).
    let network: Network.Kernels
    let accumulators: UnsafeMutablePointer<Network.Lanes>
    let pieces: UnsafeMutablePointer<UInt64>
    let accumulatorIsCurrent: UnsafeMutablePointer<Bool>
    /// The blockers of the searched position (no move changes them).
    var blockers: UInt64 = 0

    let start: ContinuousClock.Instant
    let budget: TimeBudget
    let hardDeadline: ContinuousClock.Instant?
    let nodeLimit: UInt64
    let softNodeLimit: UInt64
    var nodes: UInt64 = 0
    /// Set when a limit or `stop()` ended the search in the middle of an iteration; every score
    /// computed after that is garbage and is thrown away.
    var aborted = false
    /// The score of the root move that last raised alpha (and became the root's line in `pvTable`).
    var rootScore = 0
    /// Limits are only looked at once the first iteration is complete, so there is always a move.
    var mayAbort = false
    /// 0 for the search whose result is the engine's; from 1, a helper thread's (Lazy SMP),
    /// which fills the shared table until the engine tells its helpers to stop.
    let helper: Int

    init(
        engine: Engine, start: ContinuousClock.Instant, budget: TimeBudget, nodeLimit: UInt64?,
        softNodeLimit: UInt64? = nil, helper: Int = 0
    ) {
        self.engine = engine
        self.helper = helper
        let scratch = helper == 0 ? engine.scratch : engine.helperScratches[helper - 1]
        entries = engine.table.entries
        tableMask = engine.table.mask
        moveStack = scratch.moves
        scoreStack = scratch.scores
        pvTable = scratch.pv
        pvLength = scratch.pvLength
        killers = scratch.killers
        history = scratch.history
        rootNodes = scratch.rootNodes
        staticScores = scratch.staticScores
        reductions = scratch.reductions
        weights = UnsafePointer(scratch.weights)
        parameters = engine.parameters
        usesNetwork = engine.evaluation == .network
        network = engine.network.kernels
        accumulators = scratch.accumulators
        pieces = scratch.pieces
        accumulatorIsCurrent = scratch.accumulatorIsCurrent
        self.start = start
        self.budget = budget
        hardDeadline = budget.hard.map { start + $0 }
        self.nodeLimit = nodeLimit ?? .max
        self.softNodeLimit = softNodeLimit ?? .max
    }

    // MARK: Iterative deepening

    /// Searches one ply deeper at a time until a limit is reached, reporting each iteration.
    mutating func iterate(_ position: Position, maxDepth: Int, onInfo: (SearchInfo) -> Void)
        -> SearchResult
    {
        let limit = max(1, min(maxDepth, Self.maxDepth))
        var result = SearchResult(
            bestMove: fallbackMove(position), score: 0, depth: 0, nodes: 0, pv: [])
        var score = 0
        var stableIterations = 0
        // With one move or none there is nothing to choose: a time limit's thinking would be lost.
        let hasNoChoice = budget.hard != nil && position.legalMoves().count <= 1
        rootNodes.update(repeating: 0, count: 4096)
        refreshAccumulator(position, ply: 0)
        for depth in 1...limit {
            // Helpers search every other depth, half of them the odd ones and half the even:
            // threads on different depths fill the table with different lines.
            if helper > 0 && depth > 1 && (depth + helper) % 2 == 0 { continue }
            var delta = parameters.aspirationWindow
            var alpha = -Self.infinity
            var beta = Self.infinity
            if depth >= 5 {
                alpha = max(score - delta, -Self.infinity)
                beta = min(score + delta, Self.infinity)
            }
            var iterationScore: Int
            // The best root move this iteration has found so far, searched to the full depth: what
            // an iteration cut short leaves of worth.
            var partial: (pv: [Move], score: Int)?
            while true {
                iterationScore = negamax(position, depth: depth, alpha: alpha, beta: beta, ply: 0, isPV: true)
                if pvLength[0] > 0 { partial = (principalVariation(), rootScore) }
                if aborted { break }
                if iterationScore <= alpha {
                    beta = (alpha + beta) / 2
                    alpha = max(iterationScore - delta, -Self.infinity)
                } else if iterationScore >= beta {
                    beta = min(iterationScore + delta, Self.infinity)
                } else {
                    break
                }
                delta *= 2
                if delta > 600 {
                    alpha = -Self.infinity
                    beta = Self.infinity
                }
            }
            if aborted {
                // A root move that beat the last iteration's best move at this depth (or that move
                // itself, searched deeper) is a better answer than the last complete iteration's.
                if let partial, let first = partial.pv.first {
                    result = SearchResult(
                        bestMove: first, score: partial.score, depth: result.depth, nodes: nodes,
                        pv: partial.pv)
                }
                break
            }
            score = iterationScore
            let pv = principalVariation()
            if let first = pv.first {
                stableIterations = first == result.bestMove && depth > 1 ? stableIterations + 1 : 0
                result = SearchResult(bestMove: first, score: score, depth: depth, nodes: nodes, pv: pv)
            }
            mayAbort = true
            let elapsed = ContinuousClock.now - start
            onInfo(SearchInfo(depth: depth, score: score, nodes: nodes, time: elapsed, pv: result.pv))
            if abs(score) >= Engine.winThreshold && depth > Engine.winScore - abs(score) { break }
            if hasNoChoice { break }
            let bestMoveNodes = rootNodes[Int(MoveCode.pack(result.bestMove) & 4095)]
            let share = Double(bestMoveNodes) / Double(max(nodes, 1))
            if budget.stopsIterating(
                after: elapsed, stableIterations: stableIterations, bestMoveNodeShare: share)
            {
                break
            }
            if isStopped || nodes >= nodeLimit || nodes >= softNodeLimit { break }
        }
        result.nodes = nodes
        return result
    }

    /// The first legal move, in case nothing else is known.
    func fallbackMove(_ position: Position) -> Move {
        position.legalMoves().first ?? .pass
    }

    func principalVariation() -> [Move] {
        (0..<pvLength[0]).map { MoveCode.unpack(pvTable[$0]) }
    }

    // MARK: Limits

    /// Looks at the clock, the node budget and the stop flag; sets `aborted` when one is exhausted.
    @inline(never)
    mutating func checkLimits() {
        guard mayAbort else { return }
        if nodes >= nodeLimit || isStopped {
            aborted = true
        } else if let hardDeadline, nodes & 1023 == 0, ContinuousClock.now >= hardDeadline {
            aborted = true
        }
    }

    /// Whether `stop()` was called, or, for a helper, the engine's own search is over.
    @inline(__always)
    var isStopped: Bool {
        engine.isStopRequested || (helper > 0 && engine.helpersMustStop)
    }

    // MARK: Negamax

    /// The score of `position` for its side to move, searched `depth` plies within `alpha` and
    /// `beta`. With an `excluded` move (the singular extension's test), the other moves alone are
    /// searched and the table is neither trusted for a cutoff nor written.
    mutating func negamax(
        _ position: Position, depth: Int, alpha: Int, beta: Int, ply: Int, isPV: Bool,
        excluded: PackedMove = MoveCode.none
    ) -> Int {
        var depth = depth
        pvLength[ply] = ply
        if nodes & 255 == 0 || nodes >= nodeLimit {
            checkLimits()
        }
        if aborted { return 0 }
        nodes &+= 1

        let side = position.sideToMove
        let own = position.pieces(of: side).rawValue
        let other = position.pieces(of: side.opponent).rawValue
        let open = position.empty.rawValue
        let ownReach = MoveGenerator.reach(of: own, open: open)
        let otherReach = MoveGenerator.reach(of: other, open: open)
        if position.isGameOver(reach: ownReach | otherReach) {
            guard let winner = position.outcome?.winner else { return 0 }
            return winner == side ? Engine.winScore - ply : ply - Engine.winScore
        }
        if ownReach == 0 {
            // A forced pass: it costs a ply of depth like any move, and the line goes on.
            var next = position
            next.make(unchecked: .pass)
            staticScores[ply] = Int.min
            if usesNetwork { deferAccumulator(next, ply: ply + 1) }
            let score = -negamax(next, depth: depth - 1, alpha: -beta, beta: -alpha, ply: ply + 1, isPV: isPV)
            if isPV && !aborted { updatePV(ply: ply, move: MoveCode.pass) }
            return score
        }
        if depth <= 0 || ply >= Scratch.maxPly - 2 {
            return staticScore(
                side: side, own: own, other: other, open: open, ownReach: ownReach, otherReach: otherReach,
                ply: ply)
        }

        var alpha = alpha
        let key = position.hash
        let slot = entries + (Int(truncatingIfNeeded: key) & tableMask)
        var tableMove = MoveCode.none
        let (entryKey, entry) = TranspositionTable.read(slot)
        let hit = entryKey == key
        if hit {
            tableMove = entry.move
            if !isPV && excluded == MoveCode.none && Int(entry.depth) >= depth {
                let stored = Self.scoreFromTable(Int(entry.score), ply: ply)
                switch entry.bound {
                case .exact: return stored
                case .lower where stored >= beta: return stored
                case .upper where stored <= alpha: return stored
                default: break
                }
            }
        }

        // The table move is searched first: its child's table slot starts loading now, while the
        // static score and the move list are worked out.
        if depth >= 2 && tableMove != MoveCode.none { prefetchChild(of: position, move: tableMove) }

        // Internal iterative reduction: with no table move to try first, this node was not searched
        // before, or not deep enough to matter; a ply less costs little and the next visit has a move.
        if depth >= 4 && tableMove == MoveCode.none && excluded == MoveCode.none {
            depth -= 1
        }
        // The static score (the singular search's is its node's, already worked out), and whether
        // it is better than two plies before: the side to move is improving.
        let staticEval: Int
        if excluded == MoveCode.none {
            staticEval = staticScore(
                side: side, own: own, other: other, open: open, ownReach: ownReach, otherReach: otherReach,
                ply: ply)
            staticScores[ply] = staticEval
        } else {
            staticEval = staticScores[ply]
        }
        let improving = ply >= 2 && staticScores[ply - 2] != Int.min && staticEval > staticScores[ply - 2]
        // Reverse futility pruning: far enough above beta that a shallow search will not fall back
        // (a ply's margin less when improving).
        if !isPV && depth <= 4 && abs(beta) < Engine.winThreshold && excluded == MoveCode.none {
            if staticEval - parameters.reverseFutilityMargin * (improving ? depth - 1 : depth) >= beta {
                return staticEval
            }
        }
        // Futility pruning: near the leaves, a move that captures nothing will not lift a static
        // score this far below alpha.
        let futile =
            !isPV && depth <= 3 && abs(alpha) < Engine.winThreshold && excluded == MoveCode.none
            && staticEval + parameters.futilityBase + parameters.futilityMarginPerPly * depth <= alpha
        // Singular extension: when every other move falls well short of the table's score, the table
        // move is searched a ply deeper; when another move also reaches beta, the node cuts off at once
        // (multicut). From depth 6: a match at equal nodes chose it over 7 (the engine notebook, 2026-12-07).
        var extendTable = 0
        if ply > 0 && depth >= 6 && hit && tableMove != MoveCode.none
            && excluded == MoveCode.none && Int(entry.depth) >= depth - 3 && entry.bound != .upper
        {
            let tableScore = Self.scoreFromTable(Int(entry.score), ply: ply)
            if abs(tableScore) < Engine.winThreshold {
                let singularBeta = tableScore - parameters.singularMarginPerPly * depth
                let score = negamax(
                    position, depth: (depth - 1) / 2, alpha: singularBeta - 1, beta: singularBeta, ply: ply,
                    isPV: false, excluded: tableMove)
                if aborted { return 0 }
                pvLength[ply] = ply
                if score < singularBeta {
                    extendTable = 1
                } else if singularBeta >= beta {
                    return singularBeta
                }
            }
        }

        let moves = moveStack + ply * Scratch.maxMoves
        let scores = scoreStack + ply * Scratch.maxMoves
        let count = MoveGenerator.generate(own: own, open: open, into: moves)
        scoreMoves(moves, scores, count: count, own: own, other: other, tableMove: tableMove, ply: ply)

        let originalAlpha = alpha
        var best = -Self.infinity
        var bestMove = MoveCode.none
        var searched = 0
        let lateMoveLimit = parameters.lateMoveBase + parameters.lateMoveFactor * depth * depth
        // The move at `picked` was already chosen, when its child's table slot was prefetched.
        var picked = -1
        for index in 0..<count {
            if index != picked { pickBest(moves, scores, from: index, count: count) }
            let packed = moves[index]
            if packed == excluded { continue }
            let captures = (MoveGenerator.cloneRing(MoveCode.destination(packed)) & other).nonzeroBitCount
            let isKiller = packed == killers[ply * 2] || packed == killers[ply * 2 + 1]
            let isQuiet = captures == 0 && packed != tableMove && !isKiller
            let isReducible = packed != tableMove && !isKiller

            // Late move pruning: at low depth, late quiet moves seldom matter.
            let isWeak =
                isQuiet || (!MoveCode.isClone(packed) && captures < 2 && !isKiller && packed != tableMove)
            if !isPV && depth <= 4 && searched >= lateMoveLimit && isWeak && best > -Engine.winThreshold {
                continue
            }
            if futile && searched > 0 && isQuiet { continue }

            var next = position
            next.make(unchecked: MoveCode.unpack(packed))
            if usesNetwork { deferAccumulator(next, ply: ply + 1) }
            if depth >= 2 {
                nanashi_prefetch(entries + (Int(truncatingIfNeeded: next.hash) & tableMask))
                // The next move's child too, so that its slot is loaded by the time this child's
                // search returns (choosing it now orders the moves as choosing it then would:
                // the scores are fixed once worked out).
                if index + 1 < count {
                    pickBest(moves, scores, from: index + 1, count: count)
                    picked = index + 1
                    prefetchChild(of: position, move: moves[index + 1])
                }
            }
            let nodesBefore = nodes
            var score: Int
            if searched == 0 {
                let extra = packed == tableMove ? extendTable : 0
                score = -negamax(
                    next, depth: depth - 1 + extra, alpha: -beta, beta: -alpha, ply: ply + 1, isPV: isPV)
            } else {
                var reduction = 0
                if depth >= 3 && searched >= 2 && isReducible {
                    reduction = Int(reductions[min(depth, 63) * 64 + min(searched, 63)])
                    if isPV { reduction -= 1 }
                    if captures >= 2 { reduction -= 1 }
                    // A jump that wins little leaves a hole behind: seldom the best move.
                    if !MoveCode.isClone(packed) && captures < 2 { reduction += 1 }
                    // A move with a good history is reduced less, a bad one more.
                    reduction -= Int(history[Int(packed & 4095)]) / parameters.historyPerReduction
                    reduction = max(0, min(reduction, depth - 2))
                }
                score = -negamax(
                    next, depth: depth - 1 - reduction, alpha: -alpha - 1, beta: -alpha, ply: ply + 1,
                    isPV: false)
                if score > alpha && reduction > 0 {
                    score = -negamax(
                        next, depth: depth - 1, alpha: -alpha - 1, beta: -alpha, ply: ply + 1, isPV: false)
                }
                if score > alpha && score < beta && isPV {
                    score = -negamax(
                        next, depth: depth - 1, alpha: -beta, beta: -alpha, ply: ply + 1, isPV: true)
                }
            }
            if aborted { return 0 }
            if ply == 0 { rootNodes[Int(packed & 4095)] &+= nodes &- nodesBefore }
            searched += 1
            if score > best {
                best = score
                bestMove = packed
                if score > alpha {
                    alpha = score
                    if isPV {
                        updatePV(ply: ply, move: packed)
                        if ply == 0 { rootScore = score }
                    }
                    if score >= beta {
                        rememberCutoff(
                            packed, tried: moves, count: index, ply: ply, depth: depth, tableMove: tableMove)
                        break
                    }
                }
            }
        }

        if excluded != MoveCode.none { return best == -Self.infinity ? alpha : best }
        let bound: TranspositionTable.Bound =
            best >= beta ? .lower : (best > originalAlpha ? .exact : .upper)
        let (storedKey, stored) = TranspositionTable.read(slot)
        if storedKey != key || depth + 2 >= Int(stored.depth) || bound == .exact {
            let record = TranspositionTable.Record(
                move: Self.moveForTable(best: bestMove, table: tableMove, bound: bound),
                score: Int16(truncatingIfNeeded: Self.scoreForTable(best, ply: ply)),
                depth: Int8(truncatingIfNeeded: depth), bound: bound)
            TranspositionTable.write(record, key: key, at: slot)
        }
        return best
    }

    /// Starts loading the table slot of the position after `move`.
    @inline(__always)
    func prefetchChild(of position: Position, move: PackedMove) {
        var child = position
        child.make(unchecked: MoveCode.unpack(move))
        nanashi_prefetch(entries + (Int(truncatingIfNeeded: child.hash) & tableMask))
    }

    @inline(__always)
    func updatePV(ply: Int, move: PackedMove) {
        let row = pvTable + ply * Scratch.maxPly
        row[ply] = move
        let childLength = pvLength[ply + 1]
        var index = ply + 1
        while index < childLength {
            row[index] = pvTable[(ply + 1) * Scratch.maxPly + index]
            index += 1
        }
        pvLength[ply] = max(childLength, ply + 1)
    }

    // MARK: Randomised choice for the easy levels

    /// Scores every move with a full-window search `depth - 1` plies deep, adds up to `noise`
    /// centi-pieces of random bonus to each, and plays the best total: weaker and less predictable
    /// play, though a move that wins at once is still found when the noise is below a piece.
    mutating func noisyChoice(_ position: Position, depth: Int, noise: Int, generator: RandomSource)
        -> SearchResult
    {
        let moves = position.legalMoves()
        var bestMove = moves[0]
        var bestTotal = Int.min
        var bestScore = 0
        mayAbort = false
        refreshAccumulator(position, ply: 0)
        for candidate in moves {
            var next = position
            next.make(unchecked: candidate)
            if usesNetwork { deferAccumulator(next, ply: 1) }
            let score = -negamax(
                next, depth: depth - 1, alpha: -Self.infinity, beta: Self.infinity, ply: 1, isPV: true)
            let total = score + (abs(score) >= Engine.winThreshold ? 0 : generator.upTo(noise))
            if total > bestTotal {
                bestTotal = total
                bestMove = candidate
                bestScore = score
            }
        }
        return SearchResult(bestMove: bestMove, score: bestScore, depth: depth, nodes: nodes, pv: [bestMove])
    }
}
