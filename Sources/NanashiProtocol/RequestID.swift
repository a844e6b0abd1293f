/// The `"id"` a client may put on a message; the direct reply echoes it unchanged.
///
/// JSON allows a string or a number. Integral numbers are kept exactly; any other number is
/// kept as a `Double`.
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
