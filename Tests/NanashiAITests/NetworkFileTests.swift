import Foundation
import NanashiCore
import Testing

@testable import NanashiAI

/// Networks read from files (`Network(file:)`): what UAI's `EvalFile` and the `--network`
/// options load instead of the compiled-in network.
@Suite(.blocking) struct NetworkFileTests {
    /// Writes `bytes` to a new temporary file and returns its path.
    static func file(_ bytes: [UInt8], named name: String = "network-test.nnue") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nanashi-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A network of the compiled-in one's hidden layer whose output reads nothing and whose bias
    /// is 1.0: every position scores exactly the logistic scale K for the side to move.
    static var flatBytes: [UInt8] {
        let weights = NetworkWeights.trained
        return NetworkTests.bytes(
            of: weights, outputs: [[Int16](repeating: 0, count: 2 * Network.hidden)],
            biases: [Int32(weights.activationOne * weights.outputOne)])
    }

    @Test func aFileOfTheCompiledInNetworksBytesScoresAsItAndKeepsItsName() throws {
        let path = try Self.file(NetworkWeights.trainedBytes, named: "copy.nnue")
        let copy = try Network(file: path)
        #expect(copy.name == "copy.nnue")
        #expect(Network.trained.name.wholeMatch(of: /network-[0-9a-f]{12}\.nnue/) != nil)
        for position in try NetworkTests.positions.map(Position.init(fen:)) {
            #expect(copy.score(of: position) == Network.trained.score(of: position))
        }
        // An engine given the copy searches the compiled-in network's tree.
        let position = try Position(fen: "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8")
        let own = Engine(hashMegabytes: 1, network: copy).search(position, limits: .depth(6))
        let builtIn = Engine(hashMegabytes: 1).search(position, limits: .depth(6))
        #expect(own.nodes == builtIn.nodes && own.bestMove == builtIn.bestMove && own.score == builtIn.score)
    }

    @Test func anEngineScoresWithTheNetworkItIsGiven() throws {
        let flat = try Network(file: try Self.file(Self.flatBytes))
        let scale = NetworkWeights.trained.scale
        for position in try NetworkTests.positions.map(Position.init(fen:)) {
            #expect(flat.score(of: position) == scale)
        }
        // A ply deep, every reply leaves the other side K up.
        let result = Engine(hashMegabytes: 1, network: flat).search(.start, limits: .depth(1))
        #expect(result.score == -scale)
    }

    @Test func aFileThatIsNotANetworkOfThisShapeIsRefused() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("nanashi-\(UUID()).nnue")
            .path
        #expect(throws: NetworkFormatError("cannot read network file '\(missing)'")) {
            try Network(file: missing)
        }
        let short = try Self.file(Array(NetworkWeights.trainedBytes.prefix(1_000)))
        #expect(throws: NetworkFormatError("network file '\(short)': the weights end early")) {
            try Network(file: short)
        }
        let text = try Self.file(Array("not a network\n".utf8))
        #expect(throws: NetworkFormatError("network file '\(text)': no NNUE header")) {
            try Network(file: text)
        }
        // A well-formed network of 128 hidden: the search is built for 256.
        func little<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
            (0..<Value.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var narrow = Array("NNUE".utf8) + little(UInt16(2)) + little(UInt16(128)) + little(UInt16(255))
        narrow += little(UInt16(64)) + little(UInt32(248))
        narrow += [UInt8](repeating: 0, count: 2 * (NetworkWeights.inputs * 128 + 128 + 256) + 4)
        let narrowFile = try Self.file(narrow)
        #expect(
            throws: NetworkFormatError(
                "network file '\(narrowFile)': 128 hidden, and this engine is built for 256")
        ) { try Network(file: narrowFile) }
    }
}
