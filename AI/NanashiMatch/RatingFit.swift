import Foundation

/// One Elo scale for many players, fitted to the matches between them: the ratings under which
/// the scores they made are the most likely (Bradley–Terry, the logistic Elo curve, a draw half a
/// win), with one player's rating fixed by convention, since results only measure differences.
///
/// Each pair of players contributes as many games as it played, so a wider pair measured beside
/// the neighbours' pairs ties the ends of a ladder together instead of adding up its steps' errors.
public struct RatingFit: Sendable {
    /// Results of `first` against `second`, from `first`'s point of view.
    public struct Pairing: Hashable, Sendable {
        public var first: Int
        public var second: Int
        public var tally: Tally

        public init(_ first: Int, _ second: Int, _ tally: Tally) {
            (self.first, self.second, self.tally) = (first, second, tally)
        }
    }

    /// The results leave these players' ratings unbounded: each of them won (or lost) every
    /// game against the anchor's side of the results, or never met it.
    public struct Unbounded: Error, Hashable, Sendable {
        public var players: [Int]
    }

    /// Each player's rating on the scale.
    public let ratings: [Int: Double]
    /// Each player's standard error in Elo, as a difference from the anchor (0 for the anchor).
    public let standardErrors: [Int: Double]

    /// Elo points in one unit of the logistic curve's natural logarithm of odds.
    static let eloPerUnit = 400 / log(10.0)

    /// Fits the ratings of everyone in `pairings`, `anchor` fixed at `rating`.
    ///
    /// - Throws: `Unbounded` when the results bound some rating only on one side (a clean sweep
    ///   against everyone else, or no games linking a player to the anchor).
    public init(_ pairings: [Pairing], anchor: Int, at rating: Double) throws(Unbounded) {
        let players = Array(Set(pairings.flatMap { [$0.first, $0.second] } + [anchor])).sorted()
        let unbounded = Self.unboundedPlayers(players, pairings, anchor: anchor)
        guard unbounded.isEmpty else { throw Unbounded(players: unbounded) }
        let index = Dictionary(uniqueKeysWithValues: players.enumerated().map { ($1, $0) })
        let games = pairings.filter { $0.tally.games > 0 }.map { pairing in
            Game(
                first: index[pairing.first]!, second: index[pairing.second]!,
                points: Double(pairing.tally.wins) + Double(pairing.tally.draws) / 2,
                count: Double(pairing.tally.games))
        }
        let free = players.indices.filter { players[$0] != anchor }
        // Newton's method on the log-likelihood, concave in the strengths; halving a step that
        // would lower it keeps the first steps of a long ladder from overshooting.
        var strengths = [Double](repeating: 0, count: players.count)
        var covariance: [[Double]] = []
        for _ in 0..<200 {
            let (gradient, information) = Self.slope(games, strengths, players.count)
            covariance = Self.inverse(free.map { row in free.map { information[row][$0] } })
            var step = [Double](repeating: 0, count: players.count)
            for (row, player) in free.enumerated() {
                step[player] = zip(covariance[row], free).reduce(0) { $0 + $1.0 * gradient[$1.1] }
            }
            var scale = 1.0
            let before = Self.logLikelihood(games, strengths)
            while scale > 1e-6,
                Self.logLikelihood(games, zip(strengths, step).map { $0 + scale * $1 }) < before - 1e-12
            {
                scale /= 2
            }
            strengths = zip(strengths, step).map { $0 + scale * $1 }
            if step.allSatisfy({ abs(scale * $0) < 1e-12 }) { break }
        }
        var errors = [Int: Double]()
        for (row, player) in free.enumerated() {
            errors[players[player]] = covariance[row][row].squareRoot() * Self.eloPerUnit
        }
        errors[anchor] = 0
        ratings = Dictionary(
            uniqueKeysWithValues: zip(players, strengths).map { ($0, rating + $1 * Self.eloPerUnit) })
        standardErrors = errors
    }

    /// One pair's results by index: `points` of `count` games for `first`.
    private struct Game {
        var first: Int
        var second: Int
        var points: Double
        var count: Double
    }

    /// The log-likelihood's gradient and its negative Hessian (the information) at `strengths`.
    private static func slope(_ games: [Game], _ strengths: [Double], _ count: Int) -> ([Double], [[Double]])
    {
        var gradient = [Double](repeating: 0, count: count)
        var information = [[Double]](repeating: gradient, count: count)
        for game in games {
            let expected = 1 / (1 + exp(strengths[game.second] - strengths[game.first]))
            let surprise = game.points - game.count * expected
            gradient[game.first] += surprise
            gradient[game.second] -= surprise
            let weight = game.count * expected * (1 - expected)
            information[game.first][game.first] += weight
            information[game.second][game.second] += weight
            information[game.first][game.second] -= weight
            information[game.second][game.first] -= weight
        }
        return (gradient, information)
    }

    private static func logLikelihood(_ games: [Game], _ strengths: [Double]) -> Double {
        games.reduce(0) { sum, game in
            let lead = strengths[game.first] - strengths[game.second]
            // log(1 / (1 + e^-x)), without overflow for a large lead either way.
            func logExpected(_ x: Double) -> Double { x > 0 ? -log1p(exp(-x)) : x - log1p(exp(x)) }
            return sum + game.points * logExpected(lead) + (game.count - game.points) * logExpected(-lead)
        }
    }

    /// The inverse of a symmetric positive definite matrix, by Gauss–Jordan elimination.
    private static func inverse(_ matrix: [[Double]]) -> [[Double]] {
        let size = matrix.count
        var left = matrix
        var right = (0..<size).map { row in (0..<size).map { row == $0 ? 1.0 : 0.0 } }
        for column in 0..<size {
            let pivot = (column..<size).max { abs(left[$0][column]) < abs(left[$1][column]) }!
            left.swapAt(column, pivot)
            right.swapAt(column, pivot)
            let divisor = left[column][column]
            left[column] = left[column].map { $0 / divisor }
            right[column] = right[column].map { $0 / divisor }
            for row in 0..<size where row != column {
                let factor = left[row][column]
                guard factor != 0 else { continue }
                left[row] = zip(left[row], left[column]).map { $0 - factor * $1 }
                right[row] = zip(right[row], right[column]).map { $0 - factor * $1 }
            }
        }
        return right
    }

    /// The players outside the anchor's strongly connected part of "scored against": a rating is
    /// bounded above only if its player lost points to someone bounded, and below only if it took
    /// points from someone bounded.
    private static func unboundedPlayers(_ players: [Int], _ pairings: [Pairing], anchor: Int) -> [Int] {
        var beat = [Int: Set<Int>]()
        for pairing in pairings {
            let (tally, first, second) = (pairing.tally, pairing.first, pairing.second)
            if tally.wins + tally.draws > 0 { beat[first, default: []].insert(second) }
            if tally.losses + tally.draws > 0 { beat[second, default: []].insert(first) }
        }
        var beaten = [Int: Set<Int>]()
        for (winner, losers) in beat { for loser in losers { beaten[loser, default: []].insert(winner) } }
        func reached(_ edges: [Int: Set<Int>]) -> Set<Int> {
            var seen: Set = [anchor]
            var next = [anchor]
            while let player = next.popLast() {
                for other in edges[player, default: []] where seen.insert(other).inserted {
                    next.append(other)
                }
            }
            return seen
        }
        let bounded = reached(beat).intersection(reached(beaten))
        return players.filter { !bounded.contains($0) }
    }
}
