import NanashiCore
import Testing

@testable import NanashiAI

@Suite struct TimeBudgetTests {
    @Test(
        arguments: [
            (60_000, 0, nil), (1_000, 20, nil), (100, 1_000, nil), (30, 0, nil), (5_000, 0, 1), (0, 0, nil),
        ] as [(Int, Int, Int?)])
    func aMoveNeverTakesMoreThanAThirdOfTheTimeLeft(own: Int, increment: Int, movesToGo: Int?) throws {
        let limits = SearchLimits.clock(
            own: .milliseconds(own), opponent: .milliseconds(own), ownIncrement: .milliseconds(increment),
            opponentIncrement: .milliseconds(increment), movesToGo: movesToGo)
        let budget = TimeBudget(limits: limits, emptySquares: 45)
        let hard = try #require(budget.hard)
        let soft = try #require(budget.soft)
        #expect(soft <= hard)
        #expect(hard <= max(.milliseconds(own) - TimeBudget.overhead, .milliseconds(1)) / 3)
    }

    @Test func aMovetimeIsUsedNearlyWhole() throws {
        let budget = TimeBudget(limits: .movetime(.milliseconds(1_000)), emptySquares: 45)
        #expect(budget.hard == .milliseconds(980))
        #expect(budget.soft == nil)
    }

    @Test func onAClockAnUnsettledBestMoveGetsMoreTimeThanASettledOne() throws {
        let budget = TimeBudget(limits: .clock(own: .seconds(30), opponent: .seconds(30)), emptySquares: 45)
        // The time left less the overhead over the 65 moves expected from the start, times 1.2:
        // 552.9 ms.
        let soft = try #require(budget.soft)
        #expect(soft > .milliseconds(552) && soft < .milliseconds(554))
        // Just changed: up to the whole soft limit; settled for four iterations: 0.375 of it.
        #expect(!budget.stopsIterating(after: .milliseconds(548), stableIterations: 0))
        #expect(budget.stopsIterating(after: .milliseconds(558), stableIterations: 0))
        #expect(!budget.stopsIterating(after: .milliseconds(299), stableIterations: 2))
        #expect(budget.stopsIterating(after: .milliseconds(309), stableIterations: 2))
        #expect(!budget.stopsIterating(after: .milliseconds(202), stableIterations: 9))
        #expect(budget.stopsIterating(after: .milliseconds(212), stableIterations: 9))
    }

    @Test func onAClockABestMoveThatTookFewOfTheNodesGetsMoreTime() throws {
        let budget = TimeBudget(limits: .clock(own: .seconds(30), opponent: .seconds(30)), emptySquares: 45)
        // Settled for two iterations (1.1), the best move's share of the nodes 0.9: 1.1 × 0.81 =
        // 0.891 of the 552.9 ms soft limit, halved: 246 ms. A share of 0.3: 1.1 × 1.62, 493 ms.
        #expect(
            !budget.stopsIterating(after: .milliseconds(241), stableIterations: 2, bestMoveNodeShare: 0.9))
        #expect(budget.stopsIterating(after: .milliseconds(251), stableIterations: 2, bestMoveNodeShare: 0.9))
        #expect(
            !budget.stopsIterating(after: .milliseconds(488), stableIterations: 2, bestMoveNodeShare: 0.3))
        #expect(budget.stopsIterating(after: .milliseconds(498), stableIterations: 2, bestMoveNodeShare: 0.3))
        #expect(TimeBudget.nodeShareFactor(1) == 0.675)
        #expect(abs(TimeBudget.nodeShareFactor(-3) - 2.025) < 1e-12)
    }

    /// The fewer the empty squares, the fewer the moves left, and the larger each one's share of
    /// the same clock; `movestogo` counts when it is fewer than that.
    @Test(
        arguments: [
            (45, nil, 65), (20, nil, 40), (0, nil, 20), (45, 40, 40), (0, 40, 20), (30, 1, 1),
        ] as [(Int, Int?, Int)])
    func onAClockTheMovesLeftFollowTheEmptySquares(empty: Int, movesToGo: Int?, movesLeft: Int) throws {
        let limits = SearchLimits.clock(own: .seconds(60), opponent: .seconds(60), movesToGo: movesToGo)
        let budget = TimeBudget(limits: limits, emptySquares: empty)
        // 59.95 s over the moves left, times 1.2, at most a third of it.
        let expected = min(59_950.0 / Double(movesLeft) * 1.2, 59_950.0 / 3)
        let soft = try #require(budget.soft)
        let milliseconds =
            Double(soft.components.seconds) * 1_000 + Double(soft.components.attoseconds) / 1e15
        #expect(abs(milliseconds - expected) < 0.01, "\(milliseconds) ms, expected \(expected)")
    }

    /// A movetime starts iterations until its hard limit, whatever the best move does: time it
    /// does not spend is lost, and an iteration cut short still gives the root move it found.
    @Test func aMovetimeIsSpentAsAskedWhateverTheBestMoveDoes() {
        let budget = TimeBudget(limits: .movetime(.milliseconds(1_000)), emptySquares: 45)
        for stable in [0, 4] {
            for share in [nil, 0.1, 1] as [Double?] {
                #expect(
                    !budget.stopsIterating(
                        after: .milliseconds(975), stableIterations: stable, bestMoveNodeShare: share))
            }
        }
        #expect(
            !TimeBudget(limits: .depth(3), emptySquares: 45).stopsIterating(
                after: .seconds(60), stableIterations: 0))
    }

    /// With a clock too, the clock's soft limit decides (the movetime only caps the hard one).
    @Test func aMovetimeOnAClockKeepsTheClocksSoftLimit() throws {
        var limits = SearchLimits.clock(own: .seconds(30), opponent: .seconds(30))
        limits.movetime = .milliseconds(400)
        let budget = TimeBudget(limits: limits, emptySquares: 45)
        #expect(budget.hard == .milliseconds(380))
        let soft = try #require(budget.soft)
        #expect(soft > .milliseconds(552) && soft < .milliseconds(554))
    }

    @Test func depthAndNodeLimitsHaveNoTimeBudget() {
        let budget = TimeBudget(limits: SearchLimits(depth: 5, nodes: 1_000), emptySquares: 45)
        #expect(budget.hard == nil)
        #expect(budget.soft == nil)
    }
}
