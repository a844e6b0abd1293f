import NanashiStorage
import Testing

@testable import NanashiServer

@Test func glickmanWorkedExampleIsReproduced() {
    let player = Rating(rating: 1500, deviation: 200, volatility: 0.06)
    let results: [(opponent: Rating, score: Double)] = [
        (Rating(rating: 1400, deviation: 30, volatility: 0.06), 1),
        (Rating(rating: 1550, deviation: 100, volatility: 0.06), 0),
        (Rating(rating: 1700, deviation: 300, volatility: 0.06), 0),
    ]
    let after = Glicko2().rated(player, results: results)
    #expect(abs(after.rating - 1464.06) < 0.05)
    #expect(abs(after.deviation - 151.52) < 0.05)
    #expect(abs(after.volatility - 0.05999) < 0.00001)
}

@Test func aWinRaisesAndALossLowersEqualNewcomers() {
    let glicko = Glicko2()
    let winner = glicko.rated(.initial, results: [(.initial, 1)])
    let loser = glicko.rated(.initial, results: [(.initial, 0)])
    let drawn = glicko.rated(.initial, results: [(.initial, 0.5)])
    #expect(winner.rating > 1500 && loser.rating < 1500)
    #expect(abs((winner.rating - 1500) - (1500 - loser.rating)) < 1e-9)
    #expect(abs(drawn.rating - 1500) < 1e-9)
    #expect(winner.deviation < 350 && winner.isProvisional)
}

@Test func idleTimeWidensTheDeviationUpToTheStart() {
    let glicko = Glicko2()
    let settled = Rating(rating: 1800, deviation: 50, volatility: 0.06)
    let aged = glicko.aged(settled, periods: 1)
    #expect(abs(aged.deviation - (pow2(50 / 173.7178) + 0.0036).squareRoot() * 173.7178) < 1e-9)
    #expect(aged.rating == 1800)
    #expect(glicko.aged(settled, periods: 1e9).deviation == 350)
    #expect(glicko.aged(settled, periods: 0) == settled)
}

private func pow2(_ x: Double) -> Double { x * x }
