import Foundation
import NanashiCore

/// Wins, draws and losses from the first engine's point of view, with the Elo difference they
/// point to.
public struct Tally: Hashable, Sendable {
    public var wins = 0
    public var draws = 0
    public var losses = 0

    public init(wins: Int = 0, draws: Int = 0, losses: Int = 0) {
        self.wins = wins
        self.draws = draws
        self.losses = losses
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
