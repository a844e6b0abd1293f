// The weights the evaluation compiles in. Hand-set starting values; `nanashi tune` rewrites this file.
extension EvaluationWeights {
    /// The compiled-in weights, in the order of `EvaluationTerm`.
    package static let tuned = EvaluationWeights(
        opening: [40, 100, -8, 4, 6, 15, 5, 5, 5, 0, 0, 0, 0, 0, 0],
        endgame: [40, 100, -4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    )
}
