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
        #expect(budget.soft == .milliseconds(980))
    }

    @Test func depthAndNodeLimitsHaveNoTimeBudget() {
        let budget = TimeBudget(limits: SearchLimits(depth: 5, nodes: 1_000))
        #expect(budget.hard == nil)
        #expect(budget.soft == nil)
    }
}
