import NanashiAI
import NanashiCore
import Testing

@Suite struct SearchParametersTests {
    @Test func theTextOfTheStandardValuesNamesEveryParameterOnce() throws {
        let text = SearchParameters.standard.text
        #expect(text.hasPrefix("AspirationWindow=38\nReverseFutilityMargin=84\nFutilityBase=62\n"))
        #expect(text.hasSuffix("HistoryBonusLinear=33\nHistoryBonusMaximum=1180\n"))
        #expect(text.split(separator: "\n").count == SearchParameters.tunables.count)
        #expect(try SearchParameters(text: text) == .standard)
    }

    @Test func aFileNamesOnlyWhatItChanges() throws {
        let read = try SearchParameters(text: "# tuned\n\n ReductionDivisor = 150 \nLateMoveBase=4 # more\n")
        var expected = SearchParameters.standard
        expected.reductionDivisor = 150
        expected.lateMoveBase = 4
        #expect(read == expected)
    }

    @Test(arguments: [
        ("Aspiration=40", "line 1: no parameter 'Aspiration'"),
        ("FutilityBase=60\nFutilityBase=61", "line 2: 'FutilityBase' given twice"),
        ("FutilityBase=6.5", "line 1: 'FutilityBase' needs a whole number"),
        ("LateMoveFactor=7", "line 1: 'LateMoveFactor' must be from 1 to 6"),
        ("\nFutilityBase", "line 2: expected Name=value"),
    ])
    func badTextIsRefusedWithItsLine(text: String, message: String) {
        #expect(throws: ParameterError(message)) { try SearchParameters(text: text) }
    }

    /// The standard values (the SPSA run's values at 1,864 pairs) search one tree, set or not, and
    /// the values before them, read from a file, another: `go depth 7`, Hash 1, with the embedded
    /// network (1bfae99fee02; with 037985c81fce the trees were 2,951 and 4,215 nodes, with
    /// cec6fbcb0223 3,661 and 3,614, with fc2f14c153bc 3,470 and 3,294, with the thirteenth
    /// network 2,479 and 2,618).
    @Test func theStandardValuesSearchTheirOwnTree() throws {
        let position = try! Position(fen: "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1")
        let line = ["f2", "f6", "b6", "e7", "a6", "b2", "b6d6"]
        let plain = Engine(hashMegabytes: 1).search(position, limits: .depth(7))
        #expect(plain.nodes == 2_704)
        #expect(plain.pv.map(\.description) == line)
        let engine = Engine(hashMegabytes: 1)
        engine.parameters.reductionDivisor = 200
        engine.parameters = .standard
        let set = engine.search(position, limits: .depth(7))
        #expect(set.nodes == 2_704)
        #expect(set.pv.map(\.description) == line)
        let earlier = Engine(hashMegabytes: 1)
        earlier.parameters = try SearchParameters(
            text: """
                AspirationWindow=40
                ReverseFutilityMargin=90
                FutilityBase=60
                ReductionBase=70
                ReductionDivisor=130
                HistoryPerReduction=6000
                HistoryBonusLinear=32
                HistoryBonusMaximum=1200
                """)
        let before = earlier.search(position, limits: .depth(7))
        #expect(before.nodes == 2_617)
        #expect(before.pv.map(\.description) == ["f2", "f6", "b6", "b2", "g3", "e7", "g3g5"])
    }

    /// Each parameter is read by the search: changing any one alone changes the tree.
    @Test(arguments: SearchParameters.tunables.map(\.name))
    func everyParameterChangesTheSearch(name: String) {
        let tunable = SearchParameters.tunables.first { $0.name == name }!
        var changed = SearchParameters.standard
        let value = changed[keyPath: tunable.keyPath]
        changed[keyPath: tunable.keyPath] =
            value == tunable.range.lowerBound ? value + 1 : tunable.range.lowerBound
        func nodes(_ parameters: SearchParameters) -> UInt64 {
            let engine = Engine(hashMegabytes: 1)
            engine.parameters = parameters
            let positions = try! [
                Position.start, Position(fen: "7/1xx4/1xoo3/2ox3/3o3/7/7 x 0 1"),
                Position(fen: "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
            ]
            return positions.reduce(0) {
                $0 + engine.search($1, limits: .depth(8)).nodes
            }
        }
        #expect(nodes(changed) != nodes(.standard), "\(name) at \(changed[keyPath: tunable.keyPath])")
    }
}
