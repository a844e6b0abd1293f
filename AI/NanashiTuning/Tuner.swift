import Foundation
import NanashiAI

/// Fits the evaluation's weights to game results by the Texel method: the expected score of a
/// position is a logistic curve of its evaluation, and the weights minimise the mean squared
/// difference between that and the results (full-batch gradient descent with Adam).
///
/// The material weights and the centre's piece-square weights stay at their starting values (100
/// and 0): the ten square classes add up to the material, so one of them has to be held, and
/// holding a piece in the centre at 100 keeps the weights in centi-pieces, which the search's
/// margins are written in. The logistic curve's scale is fitted instead, now and then.
public struct Tuner {
    let positions: [TrainingPosition]
    /// The weights being fitted, as `EvaluationWeights.flattened` orders them.
    public private(set) var weights: [Double]
    /// Scale of the logistic curve: expected score = 1 / (1 + exp(-scale * evaluation)).
    public private(set) var scale: Double
    var step: Double
    private var firstMoment: [Double]
    private var secondMoment: [Double]
    private var passes = 0
    private let frozen: Set<Int>

    /// A tuner starting from `start`; `step` is the largest change of a weight per pass, roughly.
    public init(positions: [TrainingPosition], start: [Int], step: Double = 2) {
        self.positions = positions
        weights = start.map(Double.init)
        self.step = step
        scale = 0.01
        firstMoment = Array(repeating: 0, count: start.count)
        secondMoment = Array(repeating: 0, count: start.count)
        let count = EvaluationTerm.count
        frozen = [
            EvaluationTerm.material.rawValue, count + EvaluationTerm.material.rawValue,
            EvaluationTerm.centre.rawValue, count + EvaluationTerm.centre.rawValue,
        ]
    }

    /// A tuner starting from the compiled-in weights.
    public init(positions: [TrainingPosition], step: Double = 2) {
        self.init(
            positions: positions, start: EvaluationWeights.tuned.opening + EvaluationWeights.tuned.endgame,
            step: step)
    }

    /// The mean squared error of the current weights.
    public func loss() -> Double { loss(scale: scale) }

    func loss(scale: Double) -> Double {
        var total = 0.0
        for position in positions {
            let error = position.result - Self.sigmoid(scale * evaluation(position))
            total += error * error
        }
        return total / Double(max(positions.count, 1))
    }

    /// Picks the logistic scale that fits the current weights best (a golden-section search).
    public mutating func fitScale() {
        var low = 0.0001
        var high = 0.1
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<60 {
            let left = high - ratio * (high - low)
            let right = low + ratio * (high - low)
            if loss(scale: left) < loss(scale: right) { high = right } else { low = left }
        }
        scale = (low + high) / 2
    }

    /// Fits the scale, then runs `passes` passes, fitting the scale again every `refit` passes;
    /// calls `onPass` with each pass's number and loss.
    public mutating func train(passes: Int, refit: Int = 25, onPass: (Int, Double) -> Void = { _, _ in }) {
        fitScale()
        for number in 1...max(1, passes) {
            onPass(number, pass())
            if number % refit == 0 { fitScale() }
        }
    }

    /// One pass over every position; returns the loss before the pass.
    @discardableResult
    public mutating func pass() -> Double {
        var gradient = [Double](repeating: 0, count: weights.count)
        var total = 0.0
        for position in positions {
            let expected = Self.sigmoid(scale * evaluation(position))
            let error = position.result - expected
            total += error * error
            let factor = -2 * error * expected * (1 - expected) * scale
            for index in 0..<weights.count where position.features[index] != 0 {
                gradient[index] += factor * position.features[index]
            }
        }
        passes += 1
        let count = Double(max(positions.count, 1))
        let (beta1, beta2) = (0.9, 0.999)
        for index in 0..<weights.count where !frozen.contains(index) {
            let g = gradient[index] / count
            firstMoment[index] = beta1 * firstMoment[index] + (1 - beta1) * g
            secondMoment[index] = beta2 * secondMoment[index] + (1 - beta2) * g * g
            let corrected1 = firstMoment[index] / (1 - pow(beta1, Double(passes)))
            let corrected2 = secondMoment[index] / (1 - pow(beta2, Double(passes)))
            weights[index] -= step * corrected1 / (corrected2.squareRoot() + 1e-12)
        }
        return total / count
    }

    func evaluation(_ position: TrainingPosition) -> Double {
        var sum = 0.0
        for index in 0..<weights.count { sum += weights[index] * position.features[index] }
        return sum
    }

    static func sigmoid(_ value: Double) -> Double { 1 / (1 + exp(-value)) }

    /// The weights rounded to whole centi-pieces.
    public var roundedWeights: (opening: [Int], endgame: [Int]) {
        let rounded = weights.map { Int($0.rounded()) }
        let count = EvaluationTerm.count
        return (Array(rounded[..<count]), Array(rounded[count...]))
    }

    /// The Swift source of `EvaluationWeights+Tuned.swift` with the current weights.
    public func source(command: String) -> String {
        let (opening, endgame) = roundedWeights
        func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ", ") }
        let names = EvaluationTerm.allCases.map { "\($0)" }.joined(separator: ", ")
        return """
            // Written by `\(command)`; do not edit by hand.
            // How to reproduce it: docs/ENGINE.md, "Tuning the classic evaluation".
            extension EvaluationWeights {
                /// The compiled-in weights, in the order of `EvaluationTerm`:
                /// \(names).
                package static let tuned = EvaluationWeights(
                    opening: [\(list(opening))],
                    endgame: [\(list(endgame))]
                )
            }

            """
    }
}
