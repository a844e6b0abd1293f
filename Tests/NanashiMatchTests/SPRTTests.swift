import NanashiAI
import Testing

@testable import NanashiMatch

struct SPRTTests {
    @Test func boundsComeFromTheErrorRates() {
        let sprt = SPRT(elo0: 0, elo1: 10)
        #expect(abs(sprt.lowerBound - -2.944439) < 0.000001)
        #expect(abs(sprt.upperBound - 2.944439) < 0.000001)
    }

    @Test(arguments: ["0,10", "-5,5", "0.5,3"])
    func readsTwoIncreasingElos(text: String) throws {
        let sprt = try #require(SPRT(text))
        #expect(sprt.elo0 < sprt.elo1)
        #expect(sprt.alpha == 0.05 && sprt.beta == 0.05)
    }

    @Test(arguments: ["", "10", "10,0", "5,5", "a,b", "0,10,20", "0,5000"])
    func refusesOtherText(text: String) {
        #expect(SPRT(text) == nil)
    }

    @Test func aBalancedScoreLeansTowardsTheLowerHypothesis() {
        let sprt = SPRT(elo0: 0, elo1: 10)
        #expect(sprt.logLikelihoodRatio(Tally()) == 0)
        #expect(sprt.logLikelihoodRatio(Tally(wins: 30, draws: 40, losses: 30)) < 0)
        #expect(sprt.logLikelihoodRatio(Tally(wins: 40, draws: 40, losses: 20)) > 0)
    }

    @Test func waitsUntilBothSidesHaveWon() {
        let sprt = SPRT(elo0: 0, elo1: 10)
        #expect(sprt.logLikelihoodRatio(Tally(wins: 12, draws: 3)) == 0)
        #expect(sprt.decision(Tally(losses: 12)) == .undecided)
        #expect(sprt.logLikelihoodRatio(Tally(wins: 12, draws: 3, losses: 1)) > 0)
    }

    /// With finished pairs the test reads them (pentanomial): the same games give another ratio.
    @Test func pairsAreTestedByTheirOwnSpread() {
        let sprt = SPRT(elo0: 0, elo1: 10)
        var tally = Tally(wins: 10, draws: 10, losses: 4)
        // Worked out apart from the code: games alone 0.312404, their twelve pairs 0.355005.
        #expect(abs(sprt.logLikelihoodRatio(tally) - 0.312404) < 0.000001)
        tally.pairs = [0, 2, 4, 4, 2]
        #expect(abs(sprt.logLikelihoodRatio(tally) - 0.355005) < 0.000001)
        // Until a pair has gone each way, the test waits.
        tally.pairs = [0, 0, 3, 2, 1]
        #expect(sprt.logLikelihoodRatio(tally) == 0)
    }

    /// Games drawn at random with a known Elo difference: a test between bounds clear of the truth
    /// decides for the right side every time, and long before the games run out.
    @Test(arguments: [(60.0, SPRT.Decision.acceptElo1), (-40.0, .acceptElo0), (40.0, .acceptElo1)])
    func decidesForTheTrueSideOnSimulatedGames(trueElo: Double, expected: SPRT.Decision) {
        let sprt = SPRT(elo0: 0, elo1: 20)
        let expectedScore = Tally.expectedScore(elo: trueElo)
        let drawRate = 0.3
        for seed in 1...20 as ClosedRange<UInt64> {
            let random = RandomSource(seed: seed)
            var tally = Tally()
            while sprt.decision(tally) == .undecided && tally.games < 100_000 {
                let roll = Double(random.next() >> 11) / Double(1 << 53)
                if roll < expectedScore - drawRate / 2 {
                    tally.wins += 1
                } else if roll < expectedScore + drawRate / 2 {
                    tally.draws += 1
                } else {
                    tally.losses += 1
                }
            }
            #expect(sprt.decision(tally) == expected, "seed \(seed): \(tally.summary)")
        }
    }
}
