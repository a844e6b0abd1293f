import Foundation
import NanashiMatch
import Testing

struct RatingFitTests {
    /// 400 log10(3): the Elo difference at which the stronger side scores 75%.
    static let threeToOne = 400 * log10(3.0)

    @Test func twoPlayersAreTheirScoresEloDifferenceApart() throws {
        let fit = try RatingFit([.init(2, 1, Tally(wins: 75, losses: 25))], anchor: 1, at: 500)
        #expect(fit.ratings[1] == 500)
        #expect(abs(fit.ratings[2]! - (500 + Self.threeToOne)) < 1e-6)
        // One game's information at 75% is 0.75 * 0.25 of a logit squared: 100 games give a
        // standard error of 1 / sqrt(18.75) logits, 400 / ln 10 Elo each.
        #expect(abs(fit.standardErrors[2]! - 400 / log(10) / 18.75.squareRoot()) < 1e-6)
        #expect(fit.standardErrors[1] == 0)
    }

    @Test func aDrawIsHalfAWin() throws {
        let halves = try RatingFit([.init(1, 2, Tally(wins: 50, draws: 50))], anchor: 2, at: 0)
        #expect(abs(halves.ratings[1]! - Self.threeToOne) < 1e-6)
    }

    /// 3 to 1 twice, 9 to 1 across: results that agree with each other are met exactly.
    @Test func aWiderPairThatAgreesWithTheStepsChangesNothing() throws {
        let fit = try RatingFit(
            [
                .init(2, 1, Tally(wins: 75, losses: 25)), .init(3, 2, Tally(wins: 30, losses: 10)),
                .init(3, 1, Tally(wins: 90, losses: 10)),
            ], anchor: 1, at: 1000)
        #expect(abs(fit.ratings[2]! - (1000 + Self.threeToOne)) < 1e-6)
        #expect(abs(fit.ratings[3]! - (1000 + 2 * Self.threeToOne)) < 1e-6)
    }

    /// Two steps of 3 to 1 put the ends 381 apart; a wider pair that found them level pulls them
    /// together, by as much as the games of each pair weigh.
    @Test func aWiderPairThatDisagreesPullsTheEndsTogether() throws {
        let steps: [RatingFit.Pairing] = [
            .init(2, 1, Tally(wins: 75, losses: 25)), .init(3, 2, Tally(wins: 75, losses: 25)),
        ]
        let wide = try RatingFit(steps + [.init(3, 1, Tally(wins: 50, losses: 50))], anchor: 1, at: 0)
        #expect(wide.ratings[3]! > 0 && wide.ratings[3]! < 2 * Self.threeToOne)
        // By symmetry the middle player stays halfway.
        #expect(abs(wide.ratings[2]! - wide.ratings[3]! / 2) < 1e-6)
        // At the fit, each player's expected points equal the points they scored.
        let lead = wide.ratings[3]! / 2
        let expected = Tally.expectedScore(elo: lead)
        let across = Tally.expectedScore(elo: wide.ratings[3]!)
        #expect(abs(100 * expected + 100 * across - (75 + 50)) < 1e-6)
    }

    @Test func aCycleOfEqualScoresPutsEveryoneLevel() throws {
        let fit = try RatingFit(
            [
                .init(1, 2, Tally(wins: 3, losses: 1)), .init(2, 3, Tally(wins: 3, losses: 1)),
                .init(3, 1, Tally(wins: 3, losses: 1)),
            ], anchor: 2, at: 1500)
        for player in 1...3 { #expect(abs(fit.ratings[player]! - 1500) < 1e-6) }
    }

    @Test func aCleanSweepOrNoLinkLeavesARatingUnbounded() {
        let sweep = #expect(throws: RatingFit.Unbounded.self) {
            try RatingFit(
                [.init(2, 1, Tally(wins: 6, losses: 4)), .init(3, 2, Tally(wins: 10))], anchor: 1, at: 0)
        }
        #expect(sweep?.players == [3])
        let apart = #expect(throws: RatingFit.Unbounded.self) {
            try RatingFit(
                [.init(2, 1, Tally(wins: 6, losses: 4)), .init(4, 3, Tally(wins: 6, losses: 4))], anchor: 1,
                at: 0)
        }
        #expect(apart?.players == [3, 4])
        // A sweep is fine when the loser's side took points elsewhere from the winner's.
        #expect(throws: Never.self) {
            try RatingFit(
                [
                    .init(2, 1, Tally(wins: 6, losses: 4)), .init(3, 2, Tally(wins: 10)),
                    .init(3, 1, Tally(wins: 9, draws: 1)),
                ], anchor: 1, at: 0)
        }
    }
}
