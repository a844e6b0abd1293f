import NanashiCore

/// The lines of a move, the bulk of the traffic: a client's `move` and the server's `moved`,
/// written and read field by field rather than through `Codable`, which took a good part of
/// the time per move on both sides.
///
/// Only the canonical layout is handled here, exactly the bytes `JSONEncoder` writes with
/// sorted keys: plain ASCII text with nothing to escape, and integer ids. Anything else (an
/// escape, a non-integral id, other spacing or key order) returns `nil` and goes through the
/// encoder or decoder as every other message does.
extension Wire {
    /// The line of a `moved` reply, or `nil` if the encoder must write it. Its bytes are written
    /// straight into the string's storage: one allocation, no text built per square or move.
    static func movedLine(_ moved: Moved, id: RequestID?) -> String? {
        guard isPlain(moved.fen) else { return nil }
        var idText = ""
        switch id {
        case nil, .integer: break
        case .string(let text):
            guard isPlain(text) else { return nil }
            idText = text
        case .number:
            return nil
        }
        // Literals, five integers and the move take under 256 bytes; a turned piece 5 (`,"c5"`),
        // a legal move 7.
        let squares = Square.boardSize * Square.boardSize
        let texts = moved.fen.utf8.count + idText.utf8.count
        let capacity = 256 + texts + 5 * squares + 7 * (moved.legal?.count ?? 0)
        return String(unsafeUninitializedCapacity: capacity) { storage in
            var line = LineWriter(storage)
            line.write(#"{"clock":{"o":"#)
            line.write(moved.clock.o)
            line.write(#","x":"#)
            line.write(moved.clock.x)
            line.write(#"},"converted":["#)
            var first = true
            for square in moved.converted {
                line.write(first ? "\"" : ",\"")
                line.write(square)
                line.write("\"")
                first = false
            }
            line.write(#"],"fen":""#)
            line.write(text: moved.fen)
            line.write(#"","game":"#)
            line.write(moved.game)
            switch id {
            case .integer(let integer):
                line.write(#","id":"#)
                line.write(integer)
            case .string:
                line.write(#","id":""#)
                line.write(text: idText)
                line.write("\"")
            case nil, .number:
                break
            }
            if let legal = moved.legal {
                line.write(#","legal":["#)
                for (index, move) in legal.enumerated() {
                    line.write(index == 0 ? "\"" : ",\"")
                    line.write(move)
                    line.write("\"")
                }
                line.write("]")
            }
            line.write(#","move":""#)
            line.write(moved.move)
            line.write(#"","ply":"#)
            line.write(Int64(moved.ply))
            line.write(#","type":"moved"}"#)
            return line.count
        }
    }

    /// The line of a `move` request, or `nil` if the encoder must write it.
    static func moveLine(game: Int64, move: String, id: RequestID?) -> String? {
        guard isPlain(move) else { return nil }
        var line = #"{"game":"#
        line += String(game)
        guard append(id, to: &line) else { return nil }
        line += #","move":""#
        line += move
        line += #"","type":"move"}"#
        return line
    }

    /// Reads a `moved` reply laid out exactly as `movedLine` writes it; `nil` for any other line.
    static func movedReply(fromLine line: some Collection<UInt8>) -> Reply? {
        line.withContiguousStorageIfAvailable { bytes in
            var reader = CanonicalReader(bytes: bytes)
            guard reader.skip(#"{"clock":{"o":"#), let o = reader.integer(),
                reader.skip(#","x":"#), let x = reader.integer(),
                reader.skip(#"},"converted":"#), let converted = reader.list({ Square($0) }),
                reader.skip(#","fen":""#), let fen = reader.plainText(),
                reader.skip(#","game":"#), let game = reader.integer()
            else { return nil }
            guard let id = reader.id() else { return nil }
            var legal: [Move]?
            if reader.skip(#","legal":"#) {
                guard let moves = reader.list({ try? Move(notation: $0) }) else { return nil }
                legal = moves
            }
            guard reader.skip(#","move":""#), let text = reader.plainText(),
                let move = try? Move(notation: text),
                reader.skip(#","ply":"#), let ply = reader.integer(), let plyNumber = Int(exactly: ply),
                reader.skip(#","type":"moved"}"#), reader.isAtEnd
            else { return nil }
            return Reply(
                .moved(
                    Moved(
                        game: game, move: move, ply: plyNumber, fen: fen, clock: Clocks(x: x, o: o),
                        converted: Bitboard(converted), legal: legal)),
                id: id)
        } ?? nil
    }

    /// Reads a `move` request laid out exactly as `moveLine` writes it; `nil` for any other line.
    static func moveRequest(fromLine line: some Collection<UInt8>) -> Request? {
        line.withContiguousStorageIfAvailable { bytes in
            var reader = CanonicalReader(bytes: bytes)
            guard reader.skip(#"{"game":"#), let game = reader.integer(), let id = reader.id(),
                reader.skip(#","move":""#), let move = reader.plainText(),
                reader.skip(#","type":"move"}"#), reader.isAtEnd
            else { return nil }
            return Request(.move(game: game, move: move), id: id)
        } ?? nil
    }

    /// Appends `,"id":…` for an id written as it is; false for one the encoder must write.
    static func append(_ id: RequestID?, to line: inout String) -> Bool {
        switch id {
        case nil:
            return true
        case .integer(let integer):
            line += #","id":"#
            line += String(integer)
            return true
        case .string(let text):
            guard isPlain(text) else { return false }
            line += #","id":""#
            line += text
            line += "\""
            return true
        case .number:
            return false
        }
    }

    /// Printable ASCII with nothing JSON escapes: written between quotes as it is.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy(isPlain)
    }

    fileprivate static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}

/// Writes ASCII into storage known to be large enough for the line (a write past its end stops
/// the program rather than overrun it).
private struct LineWriter {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) {
        self.storage = storage
    }

    mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { copy($0) }
    }

    mutating func write(text: String) {
        var text = text
        text.withUTF8 { copy($0) }
    }

    /// An integer as `String(_:)` writes it.
    mutating func write(_ integer: Int64) {
        // At most 20 bytes (`Int64.min`), written from the end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = integer.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if integer < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            copy(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A square's name (`c5`).
    mutating func write(_ square: Square) {
        append(UInt8(ascii: "a") + UInt8(truncatingIfNeeded: square.file))
        append(UInt8(ascii: "1") + UInt8(truncatingIfNeeded: square.rank))
    }

    /// A move in notation (`f2`, `a7c5`, `0000`), as `Move.description` writes it.
    mutating func write(_ move: Move) {
        switch move {
        case .clone(let to):
            write(to)
        case .jump(let from, let to):
            write(from)
            write(to)
        case .pass:
            write("0000")
        }
    }

    private mutating func append(_ byte: UInt8) {
        precondition(count < storage.count, "a moved line outgrew its storage")
        storage[count] = byte
        count += 1
    }

    private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(storage.count - count >= bytes.count, "a moved line outgrew its storage")
        guard let source = bytes.baseAddress, let target = storage.baseAddress else { return }
        (target + count).update(from: source, count: bytes.count)
        count += bytes.count
    }
}

/// Walks a line written in the canonical layout, taking literals, integers and plain text.
private struct CanonicalReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var isAtEnd: Bool { index == bytes.count }

    /// Takes `literal` if the line goes on with it.
    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }

    /// An integer as `String(_:)` writes one: no plus sign, no leading zero, no `-0`, in range.
    mutating func integer() -> Int64? {
        let start = index
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digits = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            index += 1
        }
        let count = index - digits
        guard count > 0, count <= 19, bytes[digits] != UInt8(ascii: "0") || (count == 1 && !negative) else {
            index = start
            return nil
        }
        var magnitude: UInt64 = 0
        for position in digits..<index {
            magnitude = magnitude * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                index = start
                return nil
            }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            index = start
            return nil
        }
        return Int64(magnitude)
    }

    /// An optional `,"id":…` as `Wire.append(_:to:)` writes it: `.some(nil)` when there is
    /// none, `nil` when there is one this reader cannot take.
    mutating func id() -> RequestID?? {
        guard skip(#","id":"#) else { return .some(nil) }
        if skip("\"") {
            // A longer one is refused by the decoder, with its reason.
            return plainText().flatMap { $0.utf8.count <= RequestID.longestText ? .string($0) : nil }
        }
        return integer().map { .integer($0) }
    }

    /// A list of plain texts (`["a1","b2"]`, `[]`), each read by `element`; `nil` if one is
    /// not such a text or `element` refuses it.
    mutating func list<Element>(_ element: (String) -> Element?) -> [Element]? {
        let start = index
        guard skip("[") else { return nil }
        var elements: [Element] = []
        if skip("]") { return elements }
        repeat {
            guard skip("\""), let text = plainText(), let value = element(text) else {
                index = start
                return nil
            }
            elements.append(value)
        } while skip(",")
        guard skip("]") else {
            index = start
            return nil
        }
        return elements
    }

    /// Plain text up to its closing quote, which is taken too.
    mutating func plainText() -> String? {
        let start = index
        while index < bytes.count, Wire.isPlain(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            index = start
            return nil
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
    }
}
