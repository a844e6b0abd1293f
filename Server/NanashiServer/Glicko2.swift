import Foundation
import NanashiStorage

/// Glickman's Glicko-2 rating system (http://www.glicko.net/glicko/glicko2.pdf).
///
/// Nanashi treats each game as one rating period; time without games widens the RD as if
/// empty periods had passed.
struct Glicko2: Hashable, Sendable {
    /// The system constant τ: how much volatility may change (0.5, as Glickman suggests).
    var tau: Double
    /// The RD never grows past this (a new player's RD).
    var maximumDeviation: Double

    init(tau: Double = 0.5, maximumDeviation: Double = 350) {
        self.tau = tau
        self.maximumDeviation = maximumDeviation
    }

    /// Glicko-2's scale factor between the familiar scale and its own.
    static let scale = 173.7178
    static let convergence = 0.000001

    /// The rating after one period with these results (score 1 a win, 0.5 a draw, 0 a loss).
    func rated(_ player: Rating, results: [(opponent: Rating, score: Double)]) -> Rating {
        let mu = (player.rating - 1500) / Self.scale
        let phi = player.deviation / Self.scale
        let sigma = player.volatility
        guard !results.isEmpty else { return aged(player, periods: 1) }

        var inverseVariance = 0.0
        var improvementSum = 0.0
        for (opponent, score) in results {
            let muJ = (opponent.rating - 1500) / Self.scale
            let g = Self.g(opponent.deviation / Self.scale)
            let expected = 1 / (1 + exp(-g * (mu - muJ)))
            inverseVariance += g * g * expected * (1 - expected)
            improvementSum += g * (score - expected)
        }
        let v = 1 / inverseVariance
        let delta = v * improvementSum
        let newSigma = volatility(sigma: sigma, phi: phi, v: v, delta: delta)
        let phiStar = (phi * phi + newSigma * newSigma).squareRoot()
        let newPhi = 1 / (1 / (phiStar * phiStar) + 1 / v).squareRoot()
        let newMu = mu + newPhi * newPhi * improvementSum
        return Rating(
            rating: newMu * Self.scale + 1500,
            deviation: min(newPhi * Self.scale, maximumDeviation),
            volatility: newSigma)
    }

    /// The rating after `periods` rating periods without games: only the RD grows.
    func aged(_ player: Rating, periods: Double) -> Rating {
        guard periods > 0 else { return player }
        let phi = player.deviation / Self.scale
        let grown = (phi * phi + periods * player.volatility * player.volatility).squareRoot() * Self.scale
        return Rating(
            rating: player.rating, deviation: min(grown, maximumDeviation), volatility: player.volatility)
    }

    private static func g(_ phi: Double) -> Double {
        1 / (1 + 3 * phi * phi / (Double.pi * Double.pi)).squareRoot()
    }

    /// Step 5 of the paper: the new volatility, by the Illinois variant of regula falsi.
    private func volatility(sigma: Double, phi: Double, v: Double, delta: Double) -> Double {
        let a = log(sigma * sigma)
        let tau2 = tau * tau
        func f(_ x: Double) -> Double {
            let ex = exp(x)
            let d = phi * phi + v + ex
            return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / tau2
        }
        var lower = a
        var upper: Double
        if delta * delta > phi * phi + v {
            upper = log(delta * delta - phi * phi - v)
        } else {
            var k = 1.0
            while f(a - k * tau) < 0 { k += 1 }
            upper = a - k * tau
        }
        var fLower = f(lower)
        var fUpper = f(upper)
        var iterations = 0
        while abs(upper - lower) > Self.convergence, iterations < 200 {
            let c = lower + (lower - upper) * fLower / (fUpper - fLower)
            let fC = f(c)
            if fC * fUpper <= 0 {
                lower = upper
                fLower = fUpper
            } else {
                fLower /= 2
            }
            upper = c
            fUpper = fC
            iterations += 1
        }
        return exp(lower / 2)
    }
}
