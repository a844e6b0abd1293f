import Foundation
import NanashiCore
import NanashiProtocol

/// How a `NodeMessage` travels in a notification's payload.
///
/// The messages of every move (a move to the host, the host's lines, a game's end) take a short
/// form of their own, read without a JSON decoder and without escaping the line they carry:
/// a letter, the numbers, then the text (a line as the host wrote it, JSON with no control
/// character; a request's id escaped). The rest, rare, travel as JSON (which starts
/// with `{`, a letter no short form uses).
extension NodeMessage {
    /// The message as a payload's body.
    package func payload() -> String {
        switch self {
        case .line(.player(let player), let text):
            return "P\(player) \(text)"
        case .line(.watcher(let watcher), let text):
            return "W\(watcher) \(text)"
        case .move(let game, let side, let player, let move, let id, let node, let relay):
            // The move as sent may hold any character: its length in bytes says where it ends.
            return
                "M\(game) \(side.rawValue) \(player) \(node) \(relay) \(move.utf8.count) \(move)\(Self.payload(of: id))"
        case .ended(let game, let player):
            return "E\(game) \(player)"
        default:
            return String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
        }
    }

    /// Reads a payload's body written by `payload()`.
    ///
    /// - Throws: `NodeMessageUnreadable` for a body no node writes.
    package init(payload body: Substring) throws {
        var reader = Reader(rest: body.dropFirst())
        switch body.first {
        case "P":
            self = .line(to: .player(try reader.number()), text: String(reader.rest))
        case "W":
            self = .line(to: .watcher(Int(try reader.number())), text: String(reader.rest))
        case "M":
            let (game, side) = (try reader.number(), try reader.side())
            let (player, node, relay) = (try reader.number(), try reader.number(), try reader.number())
            let move = try reader.text(bytes: Int(try reader.number()))
            self = .move(
                game: game, side: side, player: player, move: move, id: try Self.requestID(reader.rest),
                node: node, relay: relay)
        case "E":
            self = .ended(game: try reader.number(), player: try reader.last())
        case "{":
            self = try JSONDecoder().decode(NodeMessage.self, from: Data(body.utf8))
        default:
            throw NodeMessageUnreadable()
        }
    }

    /// A request's id at the end of a short form: nothing if none, else its kind and value.
    private static func payload(of id: RequestID?) -> String {
        switch id {
        case nil: ""
        case .integer(let integer)?: "i\(integer)"
        case .number(let number)?: "d\(number)"
        case .string(let text)?: "q\(escaped(text))"
        }
    }

    /// `text` with every control byte and `%` written as `%` and two hex digits: a client's
    /// text never reaches the database as it is (PostgreSQL refuses a NUL in a notification).
    package static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text `escaped` wrote; `nil` for a broken escape.
    package static func unescaped(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func requestID(_ text: Substring) throws -> RequestID? {
        let value = text.dropFirst()
        switch text.first {
        case nil: return nil
        case "i": if let integer = Int64(value) { return .integer(integer) }
        case "d": if let number = Double(value) { return .number(number) }
        case "q": if let text = unescaped(value) { return .string(text) }
        // As a node before escaping wrote it.
        case "s": return .string(String(value))
        default: break
        }
        throw NodeMessageUnreadable()
    }

    /// Reads a short form's fields, each followed by a space, from the front of `rest`.
    private struct Reader {
        var rest: Substring

        /// The next field as text.
        mutating func field() throws -> Substring {
            guard let space = rest.utf8.firstIndex(of: UInt8(ascii: " ")) else {
                throw NodeMessageUnreadable()
            }
            defer { rest = rest[rest.utf8.index(after: space)...] }
            return rest[..<space]
        }

        mutating func number() throws -> Int64 {
            guard let number = Int64(try field()) else { throw NodeMessageUnreadable() }
            return number
        }

        /// The last field, a number.
        func last() throws -> Int64 {
            guard let number = Int64(rest) else { throw NodeMessageUnreadable() }
            return number
        }

        mutating func side() throws -> Side {
            guard let side = Side(rawValue: String(try field())) else { throw NodeMessageUnreadable() }
            return side
        }

        /// The next `bytes` bytes as text (no space after them).
        mutating func text(bytes: Int) throws -> String {
            let utf8 = rest.utf8
            guard bytes >= 0, let end = utf8.index(utf8.startIndex, offsetBy: bytes, limitedBy: utf8.endIndex)
            else { throw NodeMessageUnreadable() }
            defer { rest = rest[end...] }
            return String(rest[..<end])
        }
    }
}

/// A notification's payload that no node writes.
package struct NodeMessageUnreadable: Error {}
