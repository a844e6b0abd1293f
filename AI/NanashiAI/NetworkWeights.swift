/// The evaluation network's quantised weights, as `tools/nnue/train.py` writes them: a header
/// (`NNUE`, format version, hidden size, the two quantisation factors, the logistic scale), then
/// little-endian 16-bit hidden weights (one row of `hidden` per input), hidden biases, output
/// weights (the side to move's half, then the other side's) and a 32-bit output bias.
///
/// The inputs of one perspective are the 36 windows of 2x2 squares, 256 states each, numbered
/// window times 256 plus state (`Tuples`).
struct NetworkWeights: Sendable {
    static let inputs = Tuples.windows * Tuples.states
    static let formatVersion = 2

    let hidden: Int
    /// 1.0 of a hidden activation.
    let activationOne: Int
    /// 1.0 of an output weight.
    let outputOne: Int
    /// Centi-pieces per unit of the network's output (the logistic scale of the training data).
    let scale: Int
    /// `inputs` rows of `hidden` weights.
    let hiddenWeights: [Int16]
    let hiddenBiases: [Int16]
    /// `2 * hidden` weights: the side to move's activations first.
    let outputWeights: [Int16]
    let outputBias: Int32

    /// Reads the format above, or names what is wrong with `bytes`.
    init(bytes: [UInt8]) throws(NetworkFormatError) {
        var reader = ByteReader(bytes: bytes)
        guard reader.take(4) == Array("NNUE".utf8) else { throw NetworkFormatError("no NNUE header") }
        let version = try reader.uint16()
        guard version == Self.formatVersion else {
            throw NetworkFormatError("format version \(version), expected \(Self.formatVersion)")
        }
        hidden = Int(try reader.uint16())
        activationOne = Int(try reader.uint16())
        outputOne = Int(try reader.uint16())
        scale = Int(try reader.uint32())
        guard hidden > 0, hidden % 16 == 0, activationOne > 0, outputOne > 0, scale > 0 else {
            throw NetworkFormatError(
                "bad header: hidden \(hidden), factors \(activationOne) and \(outputOne)")
        }
        hiddenWeights = try reader.int16s(Self.inputs * hidden)
        hiddenBiases = try reader.int16s(hidden)
        outputWeights = try reader.int16s(2 * hidden)
        outputBias = Int32(bitPattern: try reader.uint32())
        guard reader.isAtEnd else { throw NetworkFormatError("\(reader.remaining) bytes after the weights") }
    }

    /// The network compiled into the engine (`NetworkWeights+Trained.swift`).
    static let trained: NetworkWeights = {
        guard let bytes = Base64.decode(trainedBase64) else {
            preconditionFailure("the embedded network is not base64")
        }
        do {
            return try NetworkWeights(bytes: bytes)
        } catch {
            preconditionFailure("the embedded network does not load: \(error)")
        }
    }()
}

/// Why a network's bytes were refused.
struct NetworkFormatError: Error, Equatable, CustomStringConvertible {
    let description: String
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

/// Base64 decoding (standard alphabet; line breaks and spaces skipped), so that the AI needs no
/// Foundation.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var table = [Int8](repeating: -1, count: 256)
        for (value, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
            .enumerated()
        {
            table[Int(character)] = Int8(value)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        var padding = 0
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default: break
            }
            let value = table[Int(character)]
            guard value >= 0, padding == 0 else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard padding <= 2, bits < 6 else { return nil }
        return bytes
    }
}
