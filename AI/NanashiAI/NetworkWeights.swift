import CNetwork

/// The evaluation network's quantised weights, as `tools/nnue/train.py` writes them: a header
/// (`NNUE`, format version, hidden size, the two quantisation factors, the logistic scale, and
/// from version 3 the number of output buckets and a reserved 16 bits), then the hidden weights
/// (one row of `hidden` per input: 8-bit in version 4, little-endian 16-bit before), the 16-bit
/// hidden biases, each bucket's 16-bit output weights (the side to move's half, then the other
/// side's) and each bucket's 32-bit output bias. Version 2 has one bucket. The search keeps the
/// rows in 8 bits, so a file of version 2 or 3 loads only when every hidden weight fits in 8 bits.
///
/// The inputs of one perspective are the 36 windows of 2x2 squares, 256 states each, numbered
/// window times 256 plus state (`Tuples`).
struct NetworkWeights: Sendable {
    static let inputs = Tuples.windows * Tuples.states
    /// The format of one output.
    static let formatVersion = 2
    /// The format of outputs chosen by the number of pieces on the board.
    static let bucketedFormatVersion = 3
    /// Version 3's layout with the hidden weights in 8 bits: the format the trainer writes.
    static let narrowRowsFormatVersion = 4

    let hidden: Int
    /// 1.0 of a hidden activation.
    let activationOne: Int
    /// 1.0 of an output weight.
    let outputOne: Int
    /// Centi-pieces per unit of the network's output (the logistic scale of the training data).
    let scale: Int
    /// `inputs` rows of `hidden` weights.
    let hiddenWeights: [Int8]
    let hiddenBiases: [Int16]
    /// How many outputs there are, one of which scores a board by its number of pieces (`bucket`).
    let buckets: Int
    /// `2 * hidden` weights a bucket: the side to move's activations first.
    let outputWeights: [Int16]
    /// One a bucket.
    let outputBiases: [Int32]

    /// Reads the format above, or names what is wrong with `bytes`.
    init(bytes: [UInt8]) throws(NetworkFormatError) {
        var reader = ByteReader(bytes: bytes)
        guard reader.take(4) == Array("NNUE".utf8) else { throw NetworkFormatError("no NNUE header") }
        let version = try reader.uint16()
        guard (Self.formatVersion...Self.narrowRowsFormatVersion).contains(Int(version)) else {
            throw NetworkFormatError(
                "format version \(version), expected \(Self.formatVersion) to \(Self.narrowRowsFormatVersion)"
            )
        }
        hidden = Int(try reader.uint16())
        activationOne = Int(try reader.uint16())
        outputOne = Int(try reader.uint16())
        scale = Int(try reader.uint32())
        if version >= Self.bucketedFormatVersion {
            buckets = Int(try reader.uint16())
            _ = try reader.uint16()  // reserved
        } else {
            buckets = 1
        }
        guard hidden > 0, hidden % 16 == 0, activationOne > 0, outputOne > 0, scale > 0 else {
            throw NetworkFormatError(
                "bad header: hidden \(hidden), factors \(activationOne) and \(outputOne)")
        }
        guard (1...Self.mostBuckets).contains(buckets) else {
            throw NetworkFormatError(
                "bad header: \(buckets) output buckets, expected 1 to \(Self.mostBuckets)")
        }
        if version == Self.narrowRowsFormatVersion {
            hiddenWeights = try reader.int8s(Self.inputs * hidden)
        } else {
            let wide = try reader.int16s(Self.inputs * hidden)
            if let outside = wide.first(where: { Int8(exactly: $0) == nil }) {
                throw NetworkFormatError(
                    "a hidden weight of \(outside): the search keeps them in 8 bits, -128 to 127")
            }
            hiddenWeights = wide.map { Int8(truncatingIfNeeded: $0) }
        }
        hiddenBiases = try reader.int16s(hidden)
        outputWeights = try reader.int16s(buckets * 2 * hidden)
        outputBiases = try (0..<buckets).map { _ throws(NetworkFormatError) in
            Int32(bitPattern: try reader.uint32())
        }
        guard reader.isAtEnd else { throw NetworkFormatError("\(reader.remaining) bytes after the weights") }
    }

    /// As many buckets as a board can have numbers of pieces (0 to 49).
    static let mostBuckets = 50

    /// The output bucket that scores a board with `pieces` pieces (both sides', 0 to 49), of
    /// `buckets`: the range cut into parts of near equal width, as the trainer's `bucket_of`.
    @inline(__always)
    static func bucket(pieces: Int, of buckets: Int) -> Int {
        pieces &* buckets / mostBuckets
    }

    /// The network compiled into the engine: `AI/CNetwork/Resources/network-<hash>.nnue`, which
    /// `tools/nnue/train.py` writes (`trainedFile` names it).
    static let trained: NetworkWeights = {
        do {
            return try NetworkWeights(bytes: trainedBytes)
        } catch {
            preconditionFailure("the embedded network (\(trainedFile)) does not load: \(error)")
        }
    }()

    /// The bytes of the embedded network's file.
    static var trainedBytes: [UInt8] {
        Array(UnsafeBufferPointer(start: nanashi_network_bytes(), count: nanashi_network_size()))
    }

    /// The embedded network's file, relative to `AI/CNetwork`: `Resources/network-<hash>.nnue`,
    /// the hash being the first 12 hex digits of the file's SHA-256.
    static var trainedFile: String { String(cString: nanashi_network_file()) }

    /// The embedded network's file name alone: `network-<hash>.nnue`.
    static var trainedFileName: String { String(trainedFile.split(separator: "/").last ?? "") }
}

/// Why a network's bytes or file were refused: one line for people.
public struct NetworkFormatError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Little-endian reads from a byte array, failing past its end.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }
    var remaining: Int { bytes.count - offset }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count <= remaining else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func uint16() throws(NetworkFormatError) -> UInt16 {
        guard let pair = take(2) else { throw NetworkFormatError("the weights end early") }
        return UInt16(pair[0]) | UInt16(pair[1]) << 8
    }

    mutating func uint32() throws(NetworkFormatError) -> UInt32 {
        UInt32(try uint16()) | UInt32(try uint16()) << 16
    }

    mutating func int8s(_ count: Int) throws(NetworkFormatError) -> [Int8] {
        guard let bytes = take(count) else { throw NetworkFormatError("the weights end early") }
        return bytes.map { Int8(bitPattern: $0) }
    }

    mutating func int16s(_ count: Int) throws(NetworkFormatError) -> [Int16] {
        guard count * 2 <= remaining else { throw NetworkFormatError("the weights end early") }
        var values = [Int16](repeating: 0, count: count)
        for index in 0..<count {
            values[index] = Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
            offset += 2
        }
        return values
    }
}
