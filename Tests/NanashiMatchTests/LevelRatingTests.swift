import NanashiAI
import NanashiMatch
import Testing

/// The levels' published ratings (`Level.elo`) are the fit of the matches measured between them.
/// To measure again: play the pairs below (`nanashi match level:A level:B --games 100
/// --concurrency 1 --seed 7`, release), put their results here, and run
/// `swift test --filter LevelRatingTests`: it prints the new fit, and fails until `Level.elo`
/// says it.
struct LevelRatingTests {
    /// A's wins, draws and losses against B, 100 games each with the built-in book.
    static let measured: [RatingFit.Pairing] = [
        // The neighbours, 2026-11-29 (docs/notebook/2026-11-engine-experiments.md, "the level
        // ladder, 24 levels, the thirteenth network").
        .init(2, 1, Tally(wins: 69, draws: 1, losses: 30)),
        .init(3, 2, Tally(wins: 61, draws: 0, losses: 39)),
        .init(4, 3, Tally(wins: 70, draws: 0, losses: 30)),
        .init(5, 4, Tally(wins: 62, draws: 1, losses: 37)),
        .init(6, 5, Tally(wins: 67, draws: 2, losses: 31)),
        .init(7, 6, Tally(wins: 79, draws: 1, losses: 20)),
        .init(8, 7, Tally(wins: 72, draws: 1, losses: 27)),
        .init(9, 8, Tally(wins: 69, draws: 4, losses: 27)),
        .init(10, 9, Tally(wins: 77, draws: 4, losses: 19)),
        .init(11, 10, Tally(wins: 65, draws: 0, losses: 35)),
        .init(12, 11, Tally(wins: 65, draws: 3, losses: 32)),
        // Wider pairs, 2026-12-02 (docs/notebook/2026-12-02-levels.md).
        .init(4, 1, Tally(wins: 93, draws: 0, losses: 7)),
        .init(8, 4, Tally(wins: 95, draws: 0, losses: 5)),
        .init(12, 8, Tally(wins: 100, draws: 0, losses: 0)),
        .init(3, 1, Tally(wins: 86, draws: 0, losses: 14)),
        .init(6, 4, Tally(wins: 79, draws: 2, losses: 19)),
        .init(10, 8, Tally(wins: 92, draws: 3, losses: 5)),
        .init(8, 6, Tally(wins: 91, draws: 2, losses: 7)),
        .init(12, 10, Tally(wins: 83, draws: 0, losses: 17)),
        .init(5, 3, Tally(wins: 81, draws: 3, losses: 16)),
        .init(7, 5, Tally(wins: 80, draws: 2, losses: 18)),
        .init(9, 7, Tally(wins: 80, draws: 1, losses: 19)),
        .init(11, 9, Tally(wins: 88, draws: 3, losses: 9)),
        // Again, 2026-12-07 (docs/notebook/2026-12-engine.md, forty-eighth session), with the
        // network 1bfae99fee02 and the search of c3ac92a, level 21 at 95,000 nodes: the pairs of
        // levels up to 23 with one of 13 or more, which search to a node count; 24 v 23 on
        // 2026-12-08 (forty-ninth session) with the same search.
        .init(13, 12, Tally(wins: 78, draws: 2, losses: 20)),
        .init(13, 11, Tally(wins: 88, draws: 1, losses: 11)),
        .init(14, 12, Tally(wins: 90, draws: 3, losses: 7)),
        .init(14, 13, Tally(wins: 71, draws: 5, losses: 24)),
        .init(15, 13, Tally(wins: 92, draws: 2, losses: 6)),
        .init(15, 14, Tally(wins: 73, draws: 10, losses: 17)),
        .init(16, 12, Tally(wins: 100, draws: 0, losses: 0)),
        .init(16, 14, Tally(wins: 90, draws: 5, losses: 5)),
        .init(16, 15, Tally(wins: 74, draws: 9, losses: 17)),
        .init(17, 15, Tally(wins: 88, draws: 7, losses: 5)),
        .init(17, 16, Tally(wins: 74, draws: 5, losses: 21)),
        .init(18, 16, Tally(wins: 91, draws: 2, losses: 7)),
        .init(18, 17, Tally(wins: 70, draws: 7, losses: 23)),
        .init(19, 17, Tally(wins: 88, draws: 3, losses: 9)),
        .init(19, 18, Tally(wins: 70, draws: 12, losses: 18)),
        .init(20, 16, Tally(wins: 99, draws: 0, losses: 1)),
        .init(20, 18, Tally(wins: 86, draws: 7, losses: 7)),
        .init(20, 19, Tally(wins: 64, draws: 14, losses: 22)),
        .init(21, 20, Tally(wins: 78, draws: 10, losses: 12)),
        .init(22, 20, Tally(wins: 87, draws: 8, losses: 5)),
        .init(22, 21, Tally(wins: 67, draws: 16, losses: 17)),
        .init(23, 22, Tally(wins: 70, draws: 20, losses: 10)),
        .init(24, 23, Tally(wins: 67, draws: 19, losses: 14)),
    ]

    /// The convention that places the scale: level 1 at 500.
    static let anchor = (level: 1, rating: 500.0)

    /// A rating as published: to the nearest 10, and from 2,000 up, where the ladder's errors
    /// have added up to more, to the nearest 50.
    static func published(_ rating: Double) -> Int {
        let tens = Int((rating / 10).rounded()) * 10
        return tens < 2000 ? tens : Int((rating / 50).rounded()) * 50
    }

    @Test func everyLevelIsPublishedAsTheFitOfItsMatches() throws {
        let fit = try RatingFit(Self.measured, anchor: Self.anchor.level, at: Self.anchor.rating)
        for level in Level.all {
            let rating = fit.ratings[level.number]!
            let error = fit.standardErrors[level.number]!
            print(
                "level \(level.number): \(Int(rating.rounded())) ± \(Int(error.rounded())), published \(Self.published(rating))"
            )
        }
        #expect(Level.all.map(\.elo) == Level.all.map { Self.published(fit.ratings[$0.number]!) })
    }

    @Test func everyLevelScoredSixtyToEightyFivePercentAgainstTheOneBelow() {
        let steps = Self.measured.filter { $0.first == $0.second + 1 }
        #expect(steps.map(\.second).sorted() == Array(Level.range.dropLast()))
        for step in steps { #expect((0.6...0.85).contains(step.tally.score), "\(step)") }
    }

    @Test func theRatingsRiseWithTheLevels() {
        let ratings = Level.all.map(\.elo)
        #expect(ratings.first == Int(Self.anchor.rating))
        #expect(zip(ratings, ratings.dropFirst()).allSatisfy { $0 < $1 })
    }
}
