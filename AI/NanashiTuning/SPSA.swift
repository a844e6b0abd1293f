import Foundation
import NanashiAI

/// Simultaneous perturbation stochastic approximation over the search's parameters, as engine
/// testing frameworks run it: each iteration nudges every parameter up or down at once, each by a
/// random sign, plays the values nudged up against the values nudged down, and moves every
/// parameter towards the side that scored better, by less as the run goes on.
///
/// The schedules are the usual ones (Spall's): at iteration `k` of `iterations`, a parameter is
/// nudged by `c_k = c / (k + 1)^0.101` and moved by `a_k / c_k × result × sign`, with
/// `a_k = a / (A + k + 1)^0.602` and `A` a tenth of the run; `c` and `a` are set so that the
/// last iteration nudges by the parameter's `step` and has `a_k / c_k² = rate`.
///
/// A value, so that a run is saved after every iteration and resumed from the file.
public struct SPSA: Codable, Sendable, Equatable {
    /// One parameter as the run moves it: a real number, rounded only to be played.
    public struct Parameter: Codable, Sendable, Equatable {
        public var name: String
        public var value: Double
        public var minimum: Double
        public var maximum: Double
        /// How far the last iteration nudges it each way.
        public var step: Double
    }

    public private(set) var parameters: [Parameter]
    /// The iterations the run is planned for.
    public let iterations: Int
    /// The iterations whose results are in.
    public private(set) var completed = 0
    /// The up side's points minus the down side's, over every iteration so far.
    public private(set) var balance = 0.0
    /// The learning rate at the last iteration (`a_k / c_k²`).
    public let rate: Double

    static let alpha = 0.602
    static let gamma = 0.101

    /// A run of `iterations` (at least 1) starting from `start`, over every parameter in
    /// `SearchParameters.tunables`.
    public init(start: SearchParameters, iterations: Int, rate: Double = 0.002) {
        parameters = SearchParameters.tunables.map { tunable in
            Parameter(
                name: tunable.name, value: Double(start[keyPath: tunable.keyPath]),
                minimum: Double(tunable.range.lowerBound), maximum: Double(tunable.range.upperBound),
                step: tunable.step)
        }
        self.iterations = max(1, iterations)
        self.rate = rate
    }

    /// How far the parameter at `index` is nudged each way at iteration `k` (from 0).
    public func perturbation(_ index: Int, iteration k: Int) -> Double {
        let n = Double(iterations)
        return parameters[index].step * pow(n, Self.gamma) / pow(Double(k + 1), Self.gamma)
    }

    /// The gain `a_k` of the parameter at `index` at iteration `k` (from 0).
    public func gain(_ index: Int, iteration k: Int) -> Double {
        let n = Double(iterations)
        let stability = n / 10
        let step = parameters[index].step
        return rate * step * step * pow(stability + n, Self.alpha)
            / pow(stability + Double(k + 1), Self.alpha)
    }

    /// A random sign (+1 or -1) for every parameter.
    public func signs(from random: RandomSource) -> [Double] {
        parameters.map { _ in random.next() & 1 == 0 ? 1 : -1 }
    }

    /// The two sides of iteration `k`: every parameter nudged by `signs` up and down, kept in
    /// its range and rounded at random to a whole number (up with the chance of its fraction,
    /// so that rounding favours neither side).
    public func sides(iteration k: Int, signs: [Double], random: RandomSource) -> (
        up: SearchParameters, down: SearchParameters
    ) {
        var up = SearchParameters.standard
        var down = SearchParameters.standard
        for (index, parameter) in parameters.enumerated() {
            let keyPath = SearchParameters.tunables[index].keyPath
            let nudge = perturbation(index, iteration: k) * signs[index]
            up[keyPath: keyPath] = Self.round(parameter, parameter.value + nudge, random)
            down[keyPath: keyPath] = Self.round(parameter, parameter.value - nudge, random)
        }
        return (up, down)
    }

    /// Takes in iteration `k`'s result: the up side's points minus the down side's (a pair of
    /// games gives -2 to 2), with the `signs` it was played with.
    public mutating func record(iteration k: Int, signs: [Double], result: Double) {
        for index in parameters.indices {
            var parameter = parameters[index]
            let move = gain(index, iteration: k) / perturbation(index, iteration: k) * result * signs[index]
            parameter.value = min(max(parameter.value + move, parameter.minimum), parameter.maximum)
            parameters[index] = parameter
        }
        completed += 1
        balance += result
    }

    /// The values so far, each rounded to the nearest whole number.
    public var current: SearchParameters {
        var values = SearchParameters.standard
        for (index, parameter) in parameters.enumerated() {
            values[keyPath: SearchParameters.tunables[index].keyPath] = Int(parameter.value.rounded())
        }
        return values
    }

    private static func round(_ parameter: Parameter, _ value: Double, _ random: RandomSource) -> Int {
        let kept = min(max(value, parameter.minimum), parameter.maximum)
        let fraction = Double(random.next() >> 11) / Double(1 << 53)
        return Int((kept + fraction).rounded(.down))
    }
}
