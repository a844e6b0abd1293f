import Foundation
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
        #expect(weights.outputWeights.count == weights.buckets * 2 * Network.hidden)
        #expect(weights.outputBiases.count == weights.buckets)
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
                let pieces = next.pieces(of: .x).count + next.pieces(of: .o).count
                #expect(
                    network.score(child, side: next.sideToMove, pieces: pieces) == network.score(of: next))
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
            (magic + [1, 0], "format version 1, expected 2 to 4"),
            (magic + [5, 0], "format version 5, expected 2 to 4"),
            (
                magic + [3, 0, 16, 0, 255, 0, 64, 0, 100, 0, 0, 0, 0, 0, 0, 0],
                "bad header: 0 output buckets, expected 1 to 50"
            ),
            (
                magic + [3, 0, 16, 0, 255, 0, 64, 0, 100, 0, 0, 0, 51, 0, 0, 0],
                "bad header: 51 output buckets, expected 1 to 50"
            ),
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
        #expect(weights.buckets == 1)
        #expect(weights.outputWeights[31] == 31)
        #expect(weights.outputBiases == [10_000])
        #expect(throws: NetworkFormatError("2 bytes after the weights")) {
            try NetworkWeights(bytes: bytes + [0, 0])
        }
    }

    @Test func bucketedWeightsReadInTheirOrder() throws {
        let hidden = 16
        // Version 3, three buckets, then the reserved 16 bits.
        var bytes = Array("NNUE".utf8) + [3, 0, 16, 0, 255, 0, 64, 0, 0xC8, 1, 0, 0, 3, 0, 0, 0]
        func int16(_ value: Int16) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        bytes += (0..<(NetworkWeights.inputs * hidden)).flatMap { int16(Int16($0 % 100 - 50)) }
        bytes += (0..<hidden).flatMap { int16(Int16(-$0)) }
        bytes += (0..<(3 * 2 * hidden)).flatMap { int16(Int16($0)) }
        bytes += [0x10, 0x27, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0]
        let weights = try NetworkWeights(bytes: bytes)
        #expect(weights.buckets == 3)
        #expect(weights.outputWeights.count == 96 && weights.outputWeights[95] == 95)
        #expect(weights.outputBiases == [10_000, -1, 2])
        #expect(throws: NetworkFormatError("the weights end early")) {
            try NetworkWeights(bytes: Array(bytes.dropLast(4)))
        }
    }

    @Test func narrowRowsReadInTheirOrder() throws {
        let hidden = 16
        // Version 4, one bucket, the reserved 16 bits, then rows of one byte a weight.
        var bytes = Array("NNUE".utf8) + [4, 0, 16, 0, 255, 0, 64, 0, 0xC8, 1, 0, 0, 1, 0, 0, 0]
        func int16(_ value: Int16) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        bytes += (0..<(NetworkWeights.inputs * hidden)).map { UInt8(bitPattern: Int8($0 % 255 - 127)) }
        bytes += (0..<hidden).flatMap { int16(Int16(-$0)) }
        bytes += (0..<(2 * hidden)).flatMap { int16(Int16($0 * 100)) }
        bytes += [0x10, 0x27, 0, 0]
        let weights = try NetworkWeights(bytes: bytes)
        #expect(weights.hiddenWeights.count == NetworkWeights.inputs * hidden)
        #expect(weights.hiddenWeights[0] == -127 && weights.hiddenWeights[254] == 127)
        #expect(weights.hiddenWeights[255] == -127 && weights.hiddenWeights[300] == -82)
        #expect(weights.hiddenBiases[15] == -15)
        #expect(weights.outputWeights[31] == 3_100)
        #expect(weights.outputBiases == [10_000])
        #expect(throws: NetworkFormatError("the weights end early")) {
            try NetworkWeights(bytes: Array(bytes.dropLast(4)))
        }
    }

    @Test func aWideRowWeightBeyondEightBitsIsRefused() throws {
        // Version 2 with one hidden weight of 128, then of -129: the search keeps the rows in 8 bits.
        let hidden = 16
        var bytes = Array("NNUE".utf8) + [2, 0, 16, 0, 255, 0, 64, 0, 0xC8, 1, 0, 0]
        bytes += [UInt8](repeating: 0, count: 2 * (NetworkWeights.inputs * hidden + hidden + 2 * hidden) + 4)
        bytes[16 + 2 * 77] = 128
        #expect(
            throws: NetworkFormatError("a hidden weight of 128: the search keeps them in 8 bits, -128 to 127")
        ) {
            try NetworkWeights(bytes: bytes)
        }
        bytes[16 + 2 * 77] = 0x7F
        bytes[16 + 2 * 77 + 1] = 0xFF
        #expect(
            throws: NetworkFormatError(
                "a hidden weight of -129: the search keeps them in 8 bits, -128 to 127")
        ) {
            try NetworkWeights(bytes: bytes)
        }
        bytes[16 + 2 * 77] = 127
        bytes[16 + 2 * 77 + 1] = 0
        #expect(try NetworkWeights(bytes: bytes).hiddenWeights[77] == 127)
        bytes[16 + 2 * 77] = 0x80
        bytes[16 + 2 * 77 + 1] = 0xFF
        #expect(try NetworkWeights(bytes: bytes).hiddenWeights[77] == -128)
    }

    @Test func piecesPickTheBucketAsTheTrainerDoes() {
        // tools/nnue/train.py's bucket_of: pieces * buckets // 50.
        #expect((0..<50).map { NetworkWeights.bucket(pieces: $0, of: 1) } == Array(repeating: 0, count: 50))
        let eight = (0..<50).map { NetworkWeights.bucket(pieces: $0, of: 8) }
        #expect(eight.first == 0 && eight.last == 7)
        #expect(
            eight.firstIndex(of: 1) == 7 && eight.firstIndex(of: 2) == 13 && eight.firstIndex(of: 7) == 44)
        #expect((0..<50).map { NetworkWeights.bucket(pieces: $0, of: 50) } == Array(0..<50))
    }

    /// The bytes of a network with `weights`' hidden layer and these outputs, in the format the
    /// trainer writes (`narrowRowsFormatVersion`).
    static func bytes(of weights: NetworkWeights, outputs: [[Int16]], biases: [Int32]) -> [UInt8] {
        func little<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
            (0..<Value.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        let version = NetworkWeights.narrowRowsFormatVersion
        var bytes = Array("NNUE".utf8) + little(UInt16(version)) + little(UInt16(weights.hidden))
        bytes += little(UInt16(weights.activationOne)) + little(UInt16(weights.outputOne))
        bytes += little(UInt32(weights.scale)) + little(UInt16(outputs.count)) + [0, 0]
        bytes += weights.hiddenWeights.map { UInt8(bitPattern: $0) }
        for value in weights.hiddenBiases + outputs.joined() {
            bytes += little(value)
        }
        for bias in biases { bytes += little(bias) }
        return bytes
    }

    @Test func aBoardIsScoredByItsPiecesBucket() throws {
        // Eight buckets: bucket 1 (boards of 7 to 12 pieces) the embedded network's first output,
        // bucket 0 no weights and a bias of 1.0, the others nothing at all.
        let weights = NetworkWeights.trained
        let output = Array(weights.outputWeights.prefix(2 * Network.hidden))
        let none = [Int16](repeating: 0, count: output.count)
        let one = Int32(weights.activationOne * weights.outputOne)
        let plain = Network(
            try NetworkWeights(
                bytes: Self.bytes(of: weights, outputs: [output], biases: [weights.outputBiases[0]])))
        let bucketed = Network(
            try NetworkWeights(
                bytes: Self.bytes(
                    of: weights, outputs: [none, output] + Array(repeating: none, count: 6),
                    biases: [one, weights.outputBiases[0]] + Array(repeating: 0, count: 6))))
        let six = try Position(fen: "xxx4/x6/7/7/7/7/o5o x 0 1")
        let seven = try Position(fen: "xxx4/xx5/7/7/7/7/o5o x 0 1")
        let twelve = try Position(fen: "xxxxxxx/xxx4/7/7/7/7/o5o o 0 1")
        let thirteen = try Position(fen: "xxxxxxx/xxxx3/7/7/7/7/o5o o 0 1")
        #expect(bucketed.score(of: six) == weights.scale)
        #expect(bucketed.score(of: seven) == plain.score(of: seven))
        #expect(bucketed.score(of: twelve) == plain.score(of: twelve))
        #expect(bucketed.score(of: thirteen) == 0)
        #expect(plain.score(of: seven) != weights.scale && plain.score(of: thirteen) != 0)
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
        let pieces = position.pieces(of: .x).count + position.pieces(of: .o).count
        let bucket = NetworkWeights.bucket(pieces: pieces, of: weights.buckets)
        let output = weights.outputWeights[(bucket * 2 * Network.hidden)...].prefix(2 * Network.hidden)
        let ownWeights = Array(output.prefix(Network.hidden))
        let otherWeights = Array(output.suffix(Network.hidden))
        let own = position.sideToMove == .x ? 0 : Network.hidden
        let other = Network.hidden - own
        let one = weights.activationOne
        var total = 0
        for index in 0..<Network.hidden {
            let a = min(max(values[own + index], 0), one)
            let b = min(max(values[other + index], 0), one)
            total += a * a * Int(ownWeights[index]) + b * b * Int(otherWeights[index])
        }
        let expected =
            (total / one + Int(weights.outputBiases[bucket])) * weights.scale / (one * weights.outputOne)
        #expect(Self.network.score(of: position) == expected)
        #expect(total != 0)
    }

    /// The embedded network's file is named by the first 12 hex digits of its SHA-256: a network
    /// edited in place, or another one given this name, fails here.
    @Test func theEmbeddedNetworkIsNamedByItsHash() {
        let file = NetworkWeights.trainedFile
        let prefix = "Resources/network-"
        let suffix = ".nnue"
        #expect(file.hasPrefix(prefix) && file.hasSuffix(suffix), "\(file)")
        let named = String(file.dropFirst(prefix.count).dropLast(suffix.count))
        #expect(named.count == 12 && named.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(file)")
        let hash = SHA256.hex(NetworkWeights.trainedBytes)
        #expect(hash.hasPrefix(named), "\(file) holds bytes whose SHA-256 is \(hash)")
    }

    /// `AI/CNetwork/Resources` holds the embedded network, as built in, and its notes, and nothing
    /// else: a network trained there but not named in `TrainedNetwork.c`, or an old one left
    /// behind, fails here.
    @Test func theResourcesAreTheEmbeddedNetworkAndItsNotes() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let target = root.appending(path: "AI/CNetwork")
        let file = NetworkWeights.trainedFile
        let stem = String(file.dropFirst("Resources/".count).dropLast(".nnue".count))
        let files = try FileManager.default.contentsOfDirectory(atPath: target.path + "/Resources")
        #expect(files.sorted() == [stem + ".nnue", stem + ".txt"])
        #expect(Array(try Data(contentsOf: target.appending(path: file))) == NetworkWeights.trainedBytes)
    }

    @Test func sha256HashesAsTheStandardSays() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks: the length no longer fits after the message's 56 bytes.
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

/// SHA-256 (FIPS 180-4), to check the embedded network's name against its bytes.
private enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5,
        0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3,
        0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc,
        0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
        0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13,
        0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3,
        0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5,
        0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208,
        0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The hash in lowercase hex.
    static func hex(_ message: [UInt8]) -> String {
        hash(message).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    static func hash(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
            0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        // The message, a 1 bit, zeros to 56 bytes past a multiple of 64, and its length in bits.
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (120 - padded.count % 64) % 64)
        let bits = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        func rotated(_ word: UInt32, _ count: UInt32) -> UInt32 { word >> count | word << (32 - count) }
        // Unchecked buffers and local copies: a debug build hashes the 4.7 MB network in about a second.
        let constants = roundConstants
        var schedule = [UInt32](repeating: 0, count: 64)
        padded.withUnsafeBufferPointer { padded in
            schedule.withUnsafeMutableBufferPointer { schedule in
                for block in stride(from: 0, to: padded.count, by: 64) {
                    for index in 0..<16 {
                        let start = block + 4 * index
                        schedule[index] =
                            UInt32(padded[start]) << 24 | UInt32(padded[start + 1]) << 16
                            | UInt32(padded[start + 2]) << 8 | UInt32(padded[start + 3])
                    }
                    for index in 16..<64 {
                        let early = schedule[index - 15]
                        let late = schedule[index - 2]
                        let sigma0 = rotated(early, 7) ^ rotated(early, 18) ^ early >> 3
                        let sigma1 = rotated(late, 17) ^ rotated(late, 19) ^ late >> 10
                        schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
                    }
                    var (a, b, c, d, e, f, g, h) = (
                        state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
                    )
                    for index in 0..<64 {
                        let sum1 = rotated(e, 6) ^ rotated(e, 11) ^ rotated(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let first = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
                        let sum0 = rotated(a, 2) ^ rotated(a, 13) ^ rotated(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ sum0 &+ majority)
                    }
                    for (index, word) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= word }
                }
            }
        }
        return state.flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) }
        }
    }
}
