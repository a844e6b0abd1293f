// Written by `nanashi tune positions.txt --epochs 300`; do not edit by hand.
// How to reproduce it: docs/ENGINE.md, "Tuning the classic evaluation".
extension EvaluationWeights {
    /// The compiled-in weights, in the order of `EvaluationTerm`:
    /// tempo, material, ownHoles, otherHoles, stable, corner, edgeB, edgeC, edgeD, ringB2, ringC2, ringD2, innerC3, innerD3, centre.
    package static let tuned = EvaluationWeights(
        opening: [-111, 100, 25, -18, 73, -49, -129, -101, -159, -155, -110, -140, -126, -146, 0],
        endgame: [308, 100, -37, 45, -39, 121, 151, 138, 114, 104, 118, 65, 109, 102, 0]
    )
}
