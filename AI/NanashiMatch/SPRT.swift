import Foundation

/// A sequential probability ratio test between two Elo differences, as engine authors run them:
/// it stops a match as soon as the games so far are far likelier under one hypothesis than the
/// other.
///
/// The log-likelihood ratio uses the normal approximation of the mean game score (wins, draws and
/// losses, with their observed variance); the bounds come from the error rates `alpha` (accepting
/// `elo1` when `elo0` holds) and `beta` (the reverse).
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

    /// The log-likelihood ratio of `elo1` against `elo0` after the games of `tally`.
    public func logLikelihoodRatio(_ tally: Tally) -> Double {
        // Until both sides have won a game the spread of the results is unknown (a first few wins
        // in a row would look like certainty), so the test waits.
        guard tally.wins > 0 && tally.losses > 0 else { return 0 }
        let score0 = Tally.expectedScore(elo: elo0)
        let score1 = Tally.expectedScore(elo: elo1)
        let variance = tally.variance
        let total = tally.score * Double(tally.games)
        return (score1 - score0) * (2 * total - Double(tally.games) * (score0 + score1)) / (2 * variance)
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
