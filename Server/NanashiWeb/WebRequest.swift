/// An HTTP request as the web pages see it: the method, the decoded path and the query's fields.
public struct WebRequest: Hashable, Sendable {
    public var method: String
    /// The path, percent-decoded (`/player/ann`).
    public var path: String
    /// The path's segments, each percent-decoded on its own (so an encoded `/` stays in its segment).
    public var segments: [String]
    /// The query's fields, percent-decoded; a field given twice keeps its first value.
    public var query: [String: String]

    public init(method: String, path: String, query: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.segments = path.split(separator: "/").map(String.init)
        self.query = query
    }

    /// Reads a request target as it arrives on the request line (`/player/ann?before=12`).
    public init(method: String, target: String) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.method = method
        let rawPath = parts.first.map(String.init) ?? "/"
        self.path = Self.decode(rawPath, plusIsSpace: false) ?? ""
        // A segment that does not decode stands as itself, and finds no page.
        self.segments = rawPath.split(separator: "/").map {
            Self.decode(String($0), plusIsSpace: false) ?? String($0)
        }
        var query: [String: String] = [:]
        if parts.count == 2 {
            for field in parts[1].split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = Self.decode(String(pair[0]), plusIsSpace: true), query[name] == nil,
                    let value = pair.count == 2 ? Self.decode(String(pair[1]), plusIsSpace: true) : ""
                else { continue }
                query[name] = value
            }
        }
        self.query = query
    }

    /// Percent-decoding; `nil` for a bad escape or bytes that are not UTF-8.
    static func decode(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue),
                    let low = iterator.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
