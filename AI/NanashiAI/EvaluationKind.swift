/// Which evaluation the search scores positions with.
public enum EvaluationKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The trained network (`NetworkWeights+Trained.swift`), updated move by move.
    case network = "nnue"
    /// The hand-written evaluation with its tuned weights (`Evaluation`).
    case classic

    public var description: String { rawValue }
}
