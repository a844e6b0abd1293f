/// The `"id"` a client may put on a message; the direct reply echoes it unchanged.
///
/// JSON allows a string or a number. Integral numbers are kept exactly; any other number is
/// kept as a `Double`. A client's string id is at most `longestText` bytes of UTF-8 with no
/// control character (`isAcceptable`): a request with any other is refused with `bad_request`.
public enum RequestID: Hashable, Sendable, Codable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case number(Double)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// What a request with an id that is not acceptable is told.
    static let unacceptable = ProtocolError(
        .badRequest, "an id is a number or at most \(longestText) bytes of printable text")

    /// The longest string id, in bytes of UTF-8.
    public static let longestText = 64

    /// Whether `text` may be a string id: at most `longestText` bytes, none of them a control
    /// character (no NUL, no line break, nothing a database or a terminal treats specially).
    public static func isAcceptable(_ text: String) -> Bool {
        text.utf8.count <= longestText
            && text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        }
    }

    public var description: String {
        switch self {
        case .string(let text): text
        case .integer(let integer): String(integer)
        case .number(let number): String(number)
        }
    }
}
