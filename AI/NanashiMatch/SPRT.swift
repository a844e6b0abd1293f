import Foundation

/// A sequential probability ratio test between two Elo differences, as engine authors run them:
/// it stops a match as soon as the games so far are far likelier under one hypothesis than the
/// other.
///
/// The log-likelihood ratio uses the normal approximation of the mean score with its observed
/// variance: of the finished pairs of games when there are any (each opening played with both
/// colours, pentanomial, as engine testers count since it leaves out what the opening gives
/// either colour), otherwise of the games (wins, draws and losses). The bounds come from the
/// error rates `alpha` (accepting `elo1` when `elo0` holds) and `beta` (the reverse).
public struct SPRT: Hashable, Sendable {
    public var elo0: Double
    public var elo1: Double
    public var alpha = 0.05
    public var beta = 0.05

    /// What the test says so far.
    public enum Decision: Hashable, Sendable {
        /// The difference is at least `elo1`.
        case acceptElo1
        /// The difference is at most `elo0`.
        case acceptElo0
        case undecided
    }

    /// Below this the test accepts `elo0`.
    public var lowerBound: Double { log(beta / (1 - alpha)) }

    /// Above this the test accepts `elo1`.
    public var upperBound: Double { log((1 - beta) / alpha) }

    /// The log-likelihood ratio of `elo1` against `elo0` after the pairs of `tally`, or its games
    /// before the first pair.
    public func logLikelihoodRatio(_ tally: Tally) -> Double {
        if let (mean, variance) = tally.pairStatistics {
            // Until a pair has gone each way the spread is unknown (a few pairs alike would look
            // like certainty), so the test waits.
            guard tally.pairs[0] + tally.pairs[1] > 0 && tally.pairs[3] + tally.pairs[4] > 0 else { return 0 }
            return ratio(mean: mean, variance: variance, count: tally.pairCount)
        }
        // Likewise until both sides have won a game.
        guard tally.wins > 0 && tally.losses > 0 else { return 0 }
        return ratio(mean: tally.score, variance: tally.variance, count: tally.games)
    }

    /// The ratio for `count` observations of `mean` score and `variance`.
    private func ratio(mean: Double, variance: Double, count: Int) -> Double {
        let score0 = Tally.expectedScore(elo: elo0)
        let score1 = Tally.expectedScore(elo: elo1)
        let total = mean * Double(count)
        return (score1 - score0) * (2 * total - Double(count) * (score0 + score1)) / (2 * variance)
    }

    public func decision(_ tally: Tally) -> Decision {
        let ratio = logLikelihoodRatio(tally)
        if ratio >= upperBound { return .acceptElo1 }
        if ratio <= lowerBound { return .acceptElo0 }
        return .undecided
    }
}

// Apart from the type, so that Swift still writes its memberwise `init(elo0:elo1:alpha:beta:)`.
extension SPRT {
    /// Reads 'ELO0,ELO1' (like '0,10'), with `elo0 < elo1`; `nil` otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let elo0 = Double(parts[0]), let elo1 = Double(parts[1]), elo0 < elo1,
            abs(elo0) < 1000, abs(elo1) < 1000
        else { return nil }
        self.init(elo0: elo0, elo1: elo1)
    }
}
