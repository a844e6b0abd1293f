import NanashiCore
import NanashiMatch
import Testing

struct TallyTests {
    @Test(arguments: [(0.5, 0.0), (0.75, 190.8485), (0.25, -190.8485), (0.9, 381.6970), (0.64, 99.9510)])
    func eloFollowsTheLogisticCurve(score: Double, elo: Double) {
        #expect(abs(Tally.elo(score: score) - elo) < 0.001)
        #expect(abs(Tally.expectedScore(elo: elo) - score) < 0.0001)
    }

    @Test func theIntervalComesFromTheSpreadOfTheGameScores() {
        // Score 0.7; per-game variance (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16, so the
        // 95% margin on the mean is 1.96 * 0.04 = 0.0784.
        let tally = Tally(wins: 60, draws: 20, losses: 20)
        #expect(tally.score == 0.7)
        let (estimate, low, high) = tally.elo
        #expect(abs(estimate - 147.1907) < 0.001)
        #expect(abs(low - 86.2240) < 0.001)
        #expect(abs(high - 218.2532) < 0.001)
        #expect(tally.summary == "+60 =20 -20, score 70.0/100 (70.0%)")
        #expect(tally.eloLine == "elo +147 (95% interval +86 to +218)")
    }

    @Test func aCleanSweepHasAnInfiniteEstimate() {
        #expect(Tally(wins: 4).eloLine == "elo +inf (95% interval +inf to +inf)")
        #expect(Tally(losses: 3).eloLine == "elo -inf (95% interval -inf to -inf)")
        #expect(Tally().score == 0.5)
    }

    @Test func resultsCountForTheFirstEngineWhicheverColourItHas() {
        var tally = Tally()
        tally.add(Outcome(winner: .x, reason: .noPieces), firstPlaysX: true)
        tally.add(Outcome(winner: .x, reason: .timeout), firstPlaysX: false)
        tally.add(Outcome(winner: .o, reason: .illegalMove), firstPlaysX: false)
        tally.add(Outcome(winner: nil, reason: .adjudication), firstPlaysX: true)
        #expect(tally == Tally(wins: 2, draws: 1, losses: 1))
    }

    @Test func pairsAreCountedByTheFirstEnginesPointsInThem() {
        var tally = Tally()
        #expect(tally.pairsLine == nil && tally.eloByPairs == nil)
        let pairs: [(Tally.Result, Tally.Result)] =
            [(.loss, .draw), (.draw, .loss)] + [(.win, .loss), (.loss, .win), (.draw, .draw), (.draw, .draw)]
            + [(.win, .draw), (.draw, .win), (.win, .draw), (.win, .draw)] + [(.win, .win), (.win, .win)]
        for (first, second) in pairs {
            tally.add(first)
            tally.add(second)
            tally.addPair(first, second)
        }
        #expect(tally.pairs == [0, 2, 4, 4, 2])
        #expect(tally.pairCount == 12)
        #expect(tally.wins == 10 && tally.draws == 10 && tally.losses == 4)
        // Pair means 0.25 (2), 0.5 (4), 0.75 (4), 1 (2): mean 0.625, variance 0.0572917, worked
        // out apart from the code.
        let (estimate, low, high) = try! #require(tally.eloByPairs)
        #expect(abs(estimate - 88.7395) < 0.001)
        #expect(abs(low - -7.2478) < 0.001)
        #expect(abs(high - 200.6496) < 0.001)
        #expect(
            tally.pairsLine
                == "pairs 12 (LL 0, LD 2, WL or DD 4, WD 4, WW 2): elo +89 (95% interval -7 to +201)")
        // The same games by themselves spread wider: the pairs leave out what the opening gives.
        #expect(tally.eloLine == "elo +89 (95% interval -13 to +209)")
    }
}
