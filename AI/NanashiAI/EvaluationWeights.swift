/// The evaluation's weights, in centi-pieces per unit of each term (`EvaluationTerm`), one set for
/// the opening and one for the endgame.
package struct EvaluationWeights: Equatable, Sendable {
    package var opening: [Int]
    package var endgame: [Int]

    package init(opening: [Int], endgame: [Int]) {
        self.opening = opening
        self.endgame = endgame
    }

    /// The opening weights then the endgame weights, as the search reads them.
    var flattened: [Int32] { (opening + endgame).map { Int32(clamping: $0) } }
}
