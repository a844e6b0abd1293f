import Foundation
import NanashiAI
import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiTuning

@Suite(.blocking) struct TunerTests {
    /// Weights to recover, in centi-pieces (material 100 and the centre 0, as the tuner holds them).
    static let known = EvaluationWeights(
        opening: [30, 100, -10, 6, 8, 12, -4, 3, 5, -2, 1, 0, 2, -1, 0],
        endgame: [20, 100, -5, 3, 2, 4, 1, 0, 2, 0, 0, 0, 0, 1, 0])

    /// Random boards of every density, with blockers.
    static func randomPositions(count: Int, seed: UInt64) -> [Position] {
        let random = RandomSource(seed: seed)
        return (0..<count).map { _ in
            let fill = 10 + random.upTo(85)
            let rows = (0..<7).map { _ in
                String(
                    (0..<7).map { _ -> Character in
                        let roll = random.upTo(99)
                        if roll >= fill { return "1" }
                        if roll < 3 { return "-" }
                        return roll % 2 == 0 ? "x" : "o"
                    })
            }
            let side = random.upTo(1) == 0 ? "x" : "o"
            return try! Position(fen: rows.joined(separator: "/") + " \(side) 0 1")
        }
    }

    @Test func recoversTheWeightsThatLabelledThePositions() {
        let scale = 0.01
        let positions = Self.randomPositions(count: 600, seed: 5).map { position in
            // The label is the expected score itself, so that the known weights fit exactly.
            let score = Double(Evaluation.score(of: position, weights: Self.known))
            let expected = 1 / (1 + exp(-scale * score))
            let resultForX = position.sideToMove == .x ? expected : 1 - expected
            return TrainingPosition(position, resultForX: resultForX)
        }
        // Everything starts at 0 but the weights the tuner holds: material at 100, the centre at 0.
        var start = [Int](repeating: 0, count: 2 * EvaluationTerm.count)
        start[EvaluationTerm.material.rawValue] = 100
        start[EvaluationTerm.count + EvaluationTerm.material.rawValue] = 100
        var tuner = Tuner(positions: positions, start: start, step: 2)
        let before = tuner.loss()
        tuner.train(passes: 1500)
        let (opening, endgame) = tuner.roundedWeights
        #expect(tuner.loss() < before / 100)
        #expect(abs(tuner.scale - scale) < 0.0005)
        for (index, term) in EvaluationTerm.allCases.enumerated() {
            #expect(
                abs(opening[index] - Self.known.opening[index]) <= 3, "\(term) opening: \(opening[index])")
            #expect(
                abs(endgame[index] - Self.known.endgame[index]) <= 3, "\(term) endgame: \(endgame[index])")
        }
    }

    @Test func theWrittenSourceListsEveryWeight() {
        let positions = Self.randomPositions(count: 1, seed: 1).map { TrainingPosition($0, resultForX: 1) }
        let tuner = Tuner(
            positions: positions, start: Self.known.opening + Self.known.endgame)
        let source = tuner.source(command: "nanashi tune data.txt --epochs 5")
        #expect(source.hasPrefix("// Written by `nanashi tune data.txt --epochs 5`"))
        #expect(source.contains("        opening: [30, 100, -10, 6, 8, 12, -4, 3, 5, -2, 1, 0, 2, -1, 0],\n"))
        #expect(source.contains("        endgame: [20, 100, -5, 3, 2, 4, 1, 0, 2, 0, 0, 0, 0, 1, 0]\n"))
    }

    @Test(arguments: [
        ("x5o/7/7/7/7/7/o5x x 0 1", "no result at the end of 'x5o/7/7/7/7/7/o5x x 0 1'"),
        ("x5o/7/7/7/7/7/o5x x 0 1 win", "no result at the end of 'x5o/7/7/7/7/7/o5x x 0 1 win'"),
        ("x5o/7/7/7/7/o5x x 0 1 1-0", "bad FEN 'x5o/7/7/7/7/o5x x 0 1'"),
        ("x5o/7/7/7/7/7/o5x x 0 1 big 1-0", "bad score 'big' in 'x5o/7/7/7/7/7/o5x x 0 1 big 1-0'"),
    ])
    func badLinesAreRefused(line: String, message: String) {
        #expect(throws: TuningError(message)) { try TrainingPosition(line: Substring(line)) }
    }

    @Test func resultsAreSeenFromTheSideToMove() throws {
        #expect(try TrainingPosition(line: "x5o/7/7/7/7/7/o5x x 0 1 1-0").result == 1)
        #expect(try TrainingPosition(line: "x5o/7/7/7/7/7/o5x o 0 1 1-0").result == 0)
        #expect(try TrainingPosition(line: "x5o/7/7/7/7/7/o5x o 0 1 1/2-1/2").result == 0.5)
        // With the search's score, which the tuner leaves alone.
        #expect(try TrainingPosition(line: "x5o/7/7/7/7/7/o5x o 0 1 -40 0-1").result == 1)
    }
}

@Test func aTuningRunTellsEachStepAndWritesTheWeights() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tune-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let (positions, out) = (
        folder.appendingPathComponent("positions.txt").path, folder.appendingPathComponent("w.swift").path
    )
    try "x5o/7/7/7/7/7/o5x x 0 1 0 1/2-1/2\nxxxxxxo/7/7/7/7/7/o5x o 0 1 -80 1-0\n".write(
        toFile: positions, atomically: true, encoding: .utf8)
    var lines: [String] = []
    try Tuner.run(positionsFile: positions, epochs: 2, out: out) { lines.append($0) }
    #expect(lines.count == 5 && lines[0].hasPrefix("positions 2, loss ") && lines[3].hasPrefix("loss "))
    #expect(
        lines[1].hasPrefix("pass 1 loss ") && lines[2].hasPrefix("pass 2 loss ") && lines[4] == "wrote \(out)"
    )
    #expect(try String(contentsOfFile: out, encoding: .utf8).contains("nanashi tune \(positions) --epochs 2"))
    let refused = #expect(throws: RangeError.self) {
        try Tuner.run(positionsFile: positions, epochs: 0, out: out) { lines.append($0) }
    }
    #expect(refused?.description == "bad epochs 0: use 1 to 100000")
    #expect(lines.count == 5)
    #expect(throws: Tuner.WriteError.self) {
        try Tuner.run(
            positionsFile: positions, epochs: 1, out: folder.appendingPathComponent("no/such/dir.swift").path
        ) { _ in }
    }
}
