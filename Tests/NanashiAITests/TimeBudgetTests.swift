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
        let budget = TimeBudget(limits: limits)
        let hard = try #require(budget.hard)
        let soft = try #require(budget.soft)
        #expect(soft <= hard)
        #expect(hard <= max(.milliseconds(own) - TimeBudget.overhead, .milliseconds(1)) / 3)
    }

    @Test func aMovetimeIsUsedNearlyWhole() throws {
        let budget = TimeBudget(limits: .movetime(.milliseconds(1_000)))
        #expect(budget.hard == .milliseconds(980))
        #expect(budget.soft == nil)
    }

    @Test func onAClockAnUnsettledBestMoveGetsMoreTimeThanASettledOne() throws {
        let budget = TimeBudget(limits: .clock(own: .seconds(30), opponent: .seconds(30)))
        // A thirtieth of the time left (less the overhead), times 0.6: 599 ms.
        let soft = try #require(budget.soft)
        #expect(soft > .milliseconds(598) && soft < .milliseconds(600))
        // Just changed: up to the whole soft limit; settled for four iterations: 0.375 of it.
        #expect(!budget.stopsIterating(after: .milliseconds(590), stableIterations: 0))
        #expect(budget.stopsIterating(after: .milliseconds(610), stableIterations: 0))
        #expect(!budget.stopsIterating(after: .milliseconds(320), stableIterations: 2))
        #expect(budget.stopsIterating(after: .milliseconds(340), stableIterations: 2))
        #expect(!budget.stopsIterating(after: .milliseconds(215), stableIterations: 9))
        #expect(budget.stopsIterating(after: .milliseconds(235), stableIterations: 9))
    }

    @Test func onAClockABestMoveThatTookFewOfTheNodesGetsMoreTime() throws {
        let budget = TimeBudget(limits: .clock(own: .seconds(30), opponent: .seconds(30)))
        // Settled for two iterations (1.1), the best move's share of the nodes 0.9: 1.1 × 0.81 =
        // 0.891 of the 599 ms soft limit, halved: 267 ms. A share of 0.3: 1.1 × 1.62, 534 ms.
        #expect(
            !budget.stopsIterating(after: .milliseconds(262), stableIterations: 2, bestMoveNodeShare: 0.9))
        #expect(budget.stopsIterating(after: .milliseconds(272), stableIterations: 2, bestMoveNodeShare: 0.9))
        #expect(
            !budget.stopsIterating(after: .milliseconds(529), stableIterations: 2, bestMoveNodeShare: 0.3))
        #expect(budget.stopsIterating(after: .milliseconds(539), stableIterations: 2, bestMoveNodeShare: 0.3))
        #expect(TimeBudget.nodeShareFactor(1) == 0.675)
        #expect(abs(TimeBudget.nodeShareFactor(-3) - 2.025) < 1e-12)
    }

    /// A movetime starts iterations until its hard limit, whatever the best move does: time it
    /// does not spend is lost, and an iteration cut short still gives the root move it found.
    @Test func aMovetimeIsSpentAsAskedWhateverTheBestMoveDoes() {
        let budget = TimeBudget(limits: .movetime(.milliseconds(1_000)))
        for stable in [0, 4] {
            for share in [nil, 0.1, 1] as [Double?] {
                #expect(
                    !budget.stopsIterating(
                        after: .milliseconds(975), stableIterations: stable, bestMoveNodeShare: share))
            }
        }
        #expect(!TimeBudget(limits: .depth(3)).stopsIterating(after: .seconds(60), stableIterations: 0))
    }

    /// With a clock too, the clock's soft limit decides (the movetime only caps the hard one).
    @Test func aMovetimeOnAClockKeepsTheClocksSoftLimit() throws {
        var limits = SearchLimits.clock(own: .seconds(30), opponent: .seconds(30))
        limits.movetime = .milliseconds(400)
        let budget = TimeBudget(limits: limits)
        #expect(budget.hard == .milliseconds(380))
        let soft = try #require(budget.soft)
        #expect(soft > .milliseconds(598) && soft < .milliseconds(600))
    }

    @Test func depthAndNodeLimitsHaveNoTimeBudget() {
        let budget = TimeBudget(limits: SearchLimits(depth: 5, nodes: 1_000))
        #expect(budget.hard == nil)
        #expect(budget.soft == nil)
    }
}
