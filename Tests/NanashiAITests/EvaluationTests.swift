import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiAI

/// The board of `fen` transformed square by square (files and ranks from 0 to 6).
private func transformed(_ position: Position, _ map: @Sendable (Int, Int) -> (Int, Int)) throws -> Position {
    var cells = [[Character]](repeating: [Character](repeating: "1", count: 7), count: 7)
    for square in Square.all {
        let (file, rank) = map(square.file, square.rank)
        let character: Character =
            position[square].map { $0 == .x ? "x" : "o" } ?? (position.blockers.contains(square) ? "-" : "1")
        cells[6 - rank][file] = character
    }
    let board = cells.map { String($0) }.joined(separator: "/")
    return try Position(fen: "\(board) \(position.sideToMove.rawValue) 0 1")
}

/// The 8 symmetries of the square board.
private let symmetries: [@Sendable (Int, Int) -> (Int, Int)] = [
    { ($0, $1) }, { (6 - $0, $1) }, { ($0, 6 - $1) }, { (6 - $0, 6 - $1) },
    { ($1, $0) }, { (6 - $1, $0) }, { ($1, 6 - $0) }, { (6 - $1, 6 - $0) },
]

private func score(_ position: Position) -> Int {
    let weights = EvaluationWeights.tuned.flattened
    let side = position.sideToMove
    return weights.withUnsafeBufferPointer {
        Evaluation.score(
            own: position.pieces(of: side).rawValue, other: position.pieces(of: side.opponent).rawValue,
            open: position.empty.rawValue, weights: $0.baseAddress!)
    }
}

@Suite(.blocking) struct EvaluationTests {
    static let positions = [
        "x5o/7/7/7/7/7/o5x x 0 1",
        "x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1",
        "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8",
        "7/1xxo3/2xooo1/1xxxo2/2oox2/3x3/7 o 0 14",
        "xxxxooo/xxxoo2/xxooo2/xx-o-x1/ooxxx2/ooxx3/oox4 x 1 24",
        "x-o4/---4/---4/7/7/7/7 x 0 1",
    ]

    @Test(arguments: positions)
    func everySymmetryOfTheBoardScoresTheSame(fen: String) throws {
        let position = try Position(fen: fen)
        let expected = score(position)
        for symmetry in symmetries {
            #expect(score(try transformed(position, symmetry)) == expected)
        }
    }

    @Test(arguments: positions)
    func theColourSwappedTwinScoresTheSameForItsSideToMove(fen: String) throws {
        let swapped = String(
            fen.map { character -> Character in character == "x" ? "o" : character == "o" ? "x" : character })
        #expect(score(try Position(fen: swapped)) == score(try Position(fen: fen)))
    }

    /// x on a7 and b6, o on d5, a blocker on a6: counted by hand.
    @Test func termsAreCountedAsTheirDocumentationSays() throws {
        let position = try Position(fen: "x6/-x5/3o3/7/7/7/7 x 0 1")
        let terms = Evaluation.terms(
            own: position.pieces(of: .x).rawValue, other: position.pieces(of: .o).rawValue,
            open: position.empty.rawValue)
        func value(_ term: EvaluationTerm) -> Int { terms[term.rawValue] }
        #expect(value(.tempo) == 1)
        #expect(value(.material) == 1)
        // o on d5 reaches files b to f, ranks 3 to 7. The empty squares there next to x: b7
        // (touching a7 and b6), c7, c6, c5 and b5 (touching b6): 6 touches.
        #expect(value(.ownHoles) == 6)
        // x reaches files a to d, ranks 4 to 7; d5's empty neighbours there: c4, d4, c5, c6, d6.
        #expect(value(.otherHoles) == 5)
        // a7 has b7 empty beside it, b6 several.
        #expect(value(.stable) == 0)
        #expect(value(.corner) == 1)
        #expect(value(.ringB2) == 1)
        #expect(value(.innerD3) == -1)
    }

    @Test func weightTablesHaveOneWeightPerTermAndPhase() {
        #expect(EvaluationWeights.tuned.opening.count == EvaluationTerm.count)
        #expect(EvaluationWeights.tuned.endgame.count == EvaluationTerm.count)
    }
}
