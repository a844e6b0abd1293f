/// Which evaluation the search scores positions with.
public enum EvaluationKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The trained network (`AI/CNetwork/Resources/network-<hash>.nnue`), updated move by move.
    case network = "nnue"
    /// The hand-written evaluation with its tuned weights (`Evaluation`).
    case classic

    public var description: String { rawValue }
}
