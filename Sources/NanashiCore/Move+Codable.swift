/// Squares and moves are written as their notation (`c5`; `f2`, `a7c5`, `0000`), as the wire
/// protocol and the web pages carry them.
extension Square: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let square = Square(name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(name.prefix(20))' is not a square: expected a1 to g7")
        }
        self = square
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

extension Move: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let notation = try container.decode(String.self)
        do {
            self = try Move(notation: notation)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
