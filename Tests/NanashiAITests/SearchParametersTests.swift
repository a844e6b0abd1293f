import NanashiAI
import NanashiCore
import NanashiTestSupport
import Testing

/// `.blocking`: each case searches with the network, for seconds in a debug build under load.
@Suite(.blocking) struct SearchParametersTests {
    @Test func theTextOfTheStandardValuesNamesEveryParameterOnce() throws {
        let text = SearchParameters.standard.text
        #expect(text.hasPrefix("AspirationWindow=36\nReverseFutilityMargin=78\nFutilityBase=63\n"))
        #expect(text.hasSuffix("HistoryBonusLinear=34\nHistoryBonusMaximum=1191\n"))
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

    /// The standard values (an SPSA run of 3,000 pairs with the network 1bfae99fee02) search one
    /// tree, set or not, and the values before them (a run's values at 1,864 pairs), read from a
    /// file, another: `go depth 7`, Hash 1, with the embedded network (1bfae99fee02).
    @Test func theStandardValuesSearchTheirOwnTree() throws {
        let position = try! Position(fen: "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1")
        let line = ["f2", "f6", "b6", "b2", "g2", "f5", "f2e4", "f6f4", "f3"]
        let plain = Engine(hashMegabytes: 1).search(position, limits: .depth(7))
        #expect(plain.nodes == 9_954)
        #expect(plain.pv.map(\.description) == line)
        let engine = Engine(hashMegabytes: 1)
        engine.parameters.reductionDivisor = 200
        engine.parameters = .standard
        let set = engine.search(position, limits: .depth(7))
        #expect(set.nodes == 9_954)
        #expect(set.pv.map(\.description) == line)
        let earlier = Engine(hashMegabytes: 1)
        earlier.parameters = try SearchParameters(
            text: """
                AspirationWindow=38
                ReverseFutilityMargin=84
                FutilityBase=62
                ReductionDivisor=121
                HistoryPerReduction=5878
                HistoryBonusLinear=33
                HistoryBonusMaximum=1180
                """)
        let before = earlier.search(position, limits: .depth(7))
        #expect(before.nodes == 8_355)
        #expect(before.pv.map(\.description) == ["f2", "f6", "b6", "b2", "c7", "g5", "e1", "f4", "e1c1"])
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
