import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiAI

@Suite(.blocking) struct NetworkTests {
    /// Positions of the start, blockers, the middle game and a full board, both sides to move:
    /// the evaluation tests' positions but the last (a board walled in by blockers).
    static let positions = Array(EvaluationTests.positions.dropLast())

    static let network = Network.trained
    typealias Lanes = Network.Lanes

    static func lanes(_ accumulator: UnsafeMutablePointer<Lanes>) -> [Lanes] {
        Array(UnsafeBufferPointer(start: accumulator, count: Network.accumulatorLanes))
    }

    static func refreshed(_ position: Position) -> [Lanes] {
        let accumulator = UnsafeMutablePointer<Lanes>.allocate(capacity: Network.accumulatorLanes)
        defer { accumulator.deallocate() }
        network.refresh(
            accumulator, x: position.pieces(of: .x).rawValue, o: position.pieces(of: .o).rawValue,
            blockers: position.blockers.rawValue)
        return lanes(accumulator)
    }

    @Test func theEmbeddedNetworkHasTheSearchsShape() {
        let weights = NetworkWeights.trained
        #expect(weights.hidden == Network.hidden)
        #expect(weights.hiddenWeights.count == NetworkWeights.inputs * Network.hidden)
        #expect(weights.outputWeights.count == 2 * Network.hidden)
        #expect(weights.activationOne == 255 && weights.outputOne == 64)
    }

    @Test func movesUpdateTheAccumulatorAsAFullRefreshWould() throws {
        let parent = UnsafeMutablePointer<Lanes>.allocate(capacity: Network.accumulatorLanes)
        let child = UnsafeMutablePointer<Lanes>.allocate(capacity: Network.accumulatorLanes)
        defer {
            parent.deallocate()
            child.deallocate()
        }
        let network = Self.network
        var moves = 0
        for (seed, start) in [
            (1, "x5o/7/7/7/7/7/o5x x 0 1"), (2, "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
            (3, "x5o/7/7/7/7/7/o5x x 0 1"),
        ] {
            let random = RandomSource(seed: UInt64(seed))
            var position = try Position(fen: start)
            network.refresh(
                parent, x: position.pieces(of: .x).rawValue, o: position.pieces(of: .o).rawValue,
                blockers: position.blockers.rawValue)
            while !position.isGameOver {
                let legal = position.legalMoves()
                let move = legal[random.upTo(legal.count - 1)]
                let next = try position.play(move)
                network.update(
                    from: parent, to: child, xBefore: position.pieces(of: .x).rawValue,
                    oBefore: position.pieces(of: .o).rawValue, xAfter: next.pieces(of: .x).rawValue,
                    oAfter: next.pieces(of: .o).rawValue, blockers: position.blockers.rawValue)
                if move == .pass {
                    // A pass changes no window: neither perspective's half changes.
                    #expect(Self.refreshed(next) == Self.lanes(parent))
                }
                #expect(Self.lanes(child) == Self.refreshed(next), "after \(move) from \(position.fen)")
                #expect(network.score(child, side: next.sideToMove) == network.score(of: next))
                parent.update(from: child, count: Network.accumulatorLanes)
                position = next
                moves += 1
            }
        }
        #expect(moves > 150)
    }

    @Test(arguments: NetworkTests.positions)
    func aPositionAndItsColourSwappedTwinScoreTheSame(fen: String) throws {
        let position = try Position(fen: fen)
        let twin = try Position(fen: swappingColors(fen))
        #expect(twin != position)
        #expect(Self.network.score(of: twin) == Self.network.score(of: position))
    }

    @Test func moreMaterialScoresHigher() throws {
        // x to move with most of the board against a few o pieces, and the same seen by o.
        let winning = try Position(fen: "xxxxxxx/xxxxxxx/xxxx3/7/7/4oo1/6o x 0 20")
        #expect(Self.network.score(of: winning) > 300)
        let losing = try Position(fen: "xxxxxxx/xxxxxxx/xxxx3/7/7/4oo1/6o o 0 20")
        #expect(Self.network.score(of: losing) < -300)
    }

    @Test func fixedDepthSearchesWithTheNetworkAreRepeatable() throws {
        let position = try Position(fen: "x1o4/2xo3/1xxoo2/3x3/2oox2/7/o5x x 2 8")
        let first = Engine(evaluation: .network).search(position, limits: .depth(6))
        let second = Engine(evaluation: .network).search(position, limits: .depth(6))
        #expect(first.nodes == second.nodes && first.score == second.score && first.pv == second.pv)
        let classic = Engine(evaluation: .classic).search(position, limits: .depth(6))
        #expect(classic.nodes != first.nodes)
    }

    static let magic: [UInt8] = Array("NNUE".utf8)

    @Test(
        arguments: [
            ([], "no NNUE header"),
            ([78, 78, 85, 88, 1, 0], "no NNUE header"),
            (magic + [1, 0], "format version 1, expected 2"),
            (magic + [2, 0, 8, 0, 255, 0, 64, 0, 100, 0, 0, 0], "bad header: hidden 8, factors 255 and 64"),
            (magic + [2, 0, 16, 0, 255, 0, 64, 0, 100, 0, 0, 0, 1, 2], "the weights end early"),
        ] as [([UInt8], String)])
    func badWeightsAreRefused(bytes: [UInt8], message: String) {
        #expect(throws: NetworkFormatError(message)) { try NetworkWeights(bytes: bytes) }
    }

    @Test func weightsReadInTheirOrder() throws {
        let hidden = 16
        var bytes = Array("NNUE".utf8) + [2, 0, 16, 0, 255, 0, 64, 0, 0xC8, 1, 0, 0]
        func int16(_ value: Int16) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        bytes += (0..<(NetworkWeights.inputs * hidden)).flatMap { int16(Int16($0 % 100 - 50)) }
        bytes += (0..<hidden).flatMap { int16(Int16(-$0)) }
        bytes += (0..<(2 * hidden)).flatMap { int16(Int16($0)) }
        bytes += [0x10, 0x27, 0, 0]
        let weights = try NetworkWeights(bytes: bytes)
        #expect(weights.scale == 456)
        #expect(weights.hiddenWeights[0] == -50 && weights.hiddenWeights[149] == -1)
        #expect(weights.hiddenBiases[15] == -15)
        #expect(weights.outputWeights[31] == 31)
        #expect(weights.outputBias == 10_000)
        #expect(throws: NetworkFormatError("2 bytes after the weights")) {
            try NetworkWeights(bytes: bytes + [0, 0])
        }
    }

    @Test func windowStatesAreNumberedAsTheTrainerNumbersThem() throws {
        // x on a7 and g1, o on a1 and g7, a blocker on d4; the states tools/nnue/train.py gives
        // (lower left 1, lower right 4, upper left 16, upper right 64; own 1, other 2, blocker 3).
        let position = try Position(fen: "x5o/7/7/3-3/7/7/o5x x 0 1")
        let expected: [Int: (x: Int, o: Int)] = [
            0: (2, 1), 5: (4, 8), 14: (192, 192), 15: (48, 48), 20: (12, 12), 21: (3, 3), 30: (16, 32),
            35: (128, 64),
        ]
        for window in 0..<Tuples.windows {
            let states = Tuples.states(
                window: window, x: position.pieces(of: .x).rawValue, o: position.pieces(of: .o).rawValue,
                blockers: position.blockers.rawValue)
            let want = expected[window] ?? (0, 0)
            #expect(states.x == want.x && states.o == want.o, "window \(window)")
        }
        #expect(Tuples.windowsOfSquare[0] == 1)
        #expect(Tuples.windowsOfSquare[24] == 1 << 14 | 1 << 15 | 1 << 20 | 1 << 21)
        #expect(Tuples.windowsOfSquare[48] == 1 << 35)
    }

    @Test(arguments: NetworkTests.positions + ["xxxxxxx/xxxxxxx/xxxx3/7/7/4oo1/6o o 0 20"])
    func theOutputKernelScoresAsThePlainFormula(fen: String) throws {
        // The vector kernel (AVX-512 or AVX2 where the processor has it) against the output layer
        // written out: the side to move's clipped activations squared times its weights, then the
        // other side's, in integers.
        let position = try Position(fen: fen)
        let weights = NetworkWeights.trained
        let values = Self.refreshed(position).flatMap { lanes in
            (0..<Lanes.scalarCount).map { Int(lanes[$0]) }
        }
        let own = position.sideToMove == .x ? 0 : Network.hidden
        let other = Network.hidden - own
        let one = weights.activationOne
        var total = 0
        for index in 0..<Network.hidden {
            let a = min(max(values[own + index], 0), one)
            let b = min(max(values[other + index], 0), one)
            total +=
                a * a * Int(weights.outputWeights[index]) + b * b
                * Int(weights.outputWeights[Network.hidden + index])
        }
        let expected = (total / one + Int(weights.outputBias)) * weights.scale / (one * weights.outputOne)
        #expect(Self.network.score(of: position) == expected)
        #expect(total != 0)
    }

    @Test func base64DecodesTheStandardAlphabet() {
        #expect(Base64.decode("TWFu") == Array("Man".utf8))
        #expect(Base64.decode("TWE=") == Array("Ma".utf8))
        #expect(Base64.decode("TQ==\n") == Array("M".utf8))
        #expect(Base64.decode("+/+/") == [0xFB, 0xFF, 0xBF])
        #expect(Base64.decode("TW*u") == nil)
        #expect(Base64.decode("TQ==TQ") == nil)
    }
}
