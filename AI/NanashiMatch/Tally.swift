import Foundation
import NanashiCore

/// Wins, draws and losses from the first engine's point of view, with the Elo difference they
/// point to; and the same by pairs of games (one opening played with each colour), whose
/// spread leaves out what the opening gives either colour.
public struct Tally: Hashable, Sendable {
    public var wins = 0
    public var draws = 0
    public var losses = 0
    /// Finished pairs by the first engine's points in them, in half points: `pairs[0]` lost
    /// both, `pairs[1]` lost one and drew one, `pairs[2]` won one and lost one or drew both,
    /// `pairs[3]` won one and drew one, `pairs[4]` won both.
    public var pairs = [0, 0, 0, 0, 0]

    public init(wins: Int = 0, draws: Int = 0, losses: Int = 0, pairs: [Int] = [0, 0, 0, 0, 0]) {
        self.wins = wins
        self.draws = draws
        self.losses = losses
        self.pairs = pairs
    }

    public var games: Int { wins + draws + losses }

    /// A game's result from the first engine's point of view, as a match's journal writes it.
    public enum Result: String, Hashable, Sendable {
        case win = "W"
        case draw = "D"
        case loss = "L"

        /// The result of a game that ended with `outcome`, the first engine playing x or not.
        public init(_ outcome: Outcome, firstPlaysX: Bool) {
            switch outcome.winner {
            case nil: self = .draw
            case .x: self = firstPlaysX ? .win : .loss
            case .o: self = firstPlaysX ? .loss : .win
            }
        }
    }

    /// Counts a game that ended with `outcome`.
    public mutating func add(_ outcome: Outcome, firstPlaysX: Bool) {
        add(Result(outcome, firstPlaysX: firstPlaysX))
    }

    /// Counts a game of `result`.
    public mutating func add(_ result: Result) {
        switch result {
        case .win: wins += 1
        case .draw: draws += 1
        case .loss: losses += 1
        }
    }

    /// Counts a finished pair of games whose results are `first` and `second` (each counted as
    /// a game by `add(_:)` too).
    public mutating func addPair(_ first: Result, _ second: Result) {
        func halfPoints(_ result: Result) -> Int { result == .win ? 2 : result == .draw ? 1 : 0 }
        pairs[halfPoints(first) + halfPoints(second)] += 1
    }

    /// Finished pairs.
    public var pairCount: Int { pairs.reduce(0, +) }

    /// The mean score of a game over the finished pairs, and the variance of a pair's mean
    /// around it; `nil` before the first pair.
    var pairStatistics: (mean: Double, variance: Double)? {
        let count = Double(pairCount)
        guard count > 0 else { return nil }
        let scores = [0, 0.25, 0.5, 0.75, 1]
        let mean = zip(pairs, scores).map { Double($0) * $1 }.reduce(0, +) / count
        let variance = zip(pairs, scores).map { Double($0) * ($1 - mean) * ($1 - mean) }.reduce(0, +) / count
        return (mean, variance)
    }

    /// The Elo difference and its 95% interval from the finished pairs (the normal approximation
    /// of a pair's mean score); `nil` before the first pair.
    public var eloByPairs: (estimate: Double, low: Double, high: Double)? {
        guard let (mean, variance) = pairStatistics else { return nil }
        let margin = 1.96 * (variance / Double(pairCount)).squareRoot()
        return (Self.elo(score: mean), Self.elo(score: mean - margin), Self.elo(score: mean + margin))
    }

    /// The mean score of a game, from 0 (all lost) to 1 (all won); 0.5 before any game.
    public var score: Double { games == 0 ? 0.5 : (Double(wins) + Double(draws) / 2) / Double(games) }

    /// The variance of one game's score around the mean.
    var variance: Double {
        guard games > 0 else { return 0 }
        let mean = score
        let spread =
            Double(wins) * (1 - mean) * (1 - mean) + Double(draws) * (0.5 - mean) * (0.5 - mean)
            + Double(losses) * mean * mean
        return spread / Double(games)
    }

    /// The Elo difference and its 95% interval, from the normal approximation of the mean score;
    /// infinite when every game was won (or lost).
    public var elo: (estimate: Double, low: Double, high: Double) {
        let margin = 1.96 * (variance / Double(max(games, 1))).squareRoot()
        return (Self.elo(score: score), Self.elo(score: score - margin), Self.elo(score: score + margin))
    }

    /// The Elo difference at which the stronger side expects to score `score`.
    public static func elo(score: Double) -> Double {
        if score >= 1 { return .infinity }
        if score <= 0 { return -.infinity }
        return -400 * log10(1 / score - 1)
    }

    /// The score expected at an Elo difference of `elo`.
    public static func expectedScore(elo: Double) -> Double {
        1 / (1 + pow(10, -elo / 400))
    }

    /// `+W =D -L, score P/N (S%)`.
    public var summary: String {
        let points = Double(wins) + Double(draws) / 2
        return "+\(wins) =\(draws) -\(losses), score \(Self.format(points, 1))/\(games)"
            + " (\(Self.format(score * 100, 1))%)"
    }

    /// `elo +E (95% interval L to H)`.
    public var eloLine: String {
        let (estimate, low, high) = elo
        return "elo \(Self.signed(estimate)) (95% interval \(Self.signed(low)) to \(Self.signed(high)))"
    }

    /// `pairs N (LL A, LD B, WL or DD C, WD D, WW E): elo +E (95% interval L to H)`; `nil` before
    /// the first pair.
    public var pairsLine: String? {
        guard let (estimate, low, high) = eloByPairs else { return nil }
        return
            "pairs \(pairCount) (LL \(pairs[0]), LD \(pairs[1]), WL or DD \(pairs[2]), WD \(pairs[3]), WW \(pairs[4])):"
            + " elo \(Self.signed(estimate)) (95% interval \(Self.signed(low)) to \(Self.signed(high)))"
    }

    static func signed(_ elo: Double) -> String {
        if elo == .infinity { return "+inf" }
        if elo == -.infinity { return "-inf" }
        let text = format(elo, 0)
        return text.hasPrefix("-") ? text : "+" + text
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
