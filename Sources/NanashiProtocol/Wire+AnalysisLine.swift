import Foundation

extension Wire {
    /// The `analysis` line for an analysis's fields as storage keeps them (`Wire.encode`d):
    /// byte for byte the encoder's line for that analysis and request id.
    ///
    /// - Throws: `DecodingError` when the fields are not an analysis.
    public static func analysisLine(fields: String, id: RequestID?) throws -> String {
        if let line = analysisLineAsWritten(fields: fields, id: id) { return line }
        let analysis = try JSONDecoder().decode(GameAnalysis.self, from: Data(fields.utf8))
        return line(Reply(.analysis(analysis), id: id))
    }

    /// The fields' bytes as they are, with the request's id and the type put in their sorted
    /// places: a stored analysis is served without being decoded and encoded again. `nil` when
    /// the fields are not in the protocol's key order (stored before it was) or the id needs
    /// escaping.
    static func analysisLineAsWritten(fields: String, id: RequestID?) -> String? {
        // Sorted keys: accuracy, depth, evals, game, [id], mistakes, [type], unit. No value holds
        // a quote but the unit, so the first `,"mistakes":` is the key's.
        let unitTail = #","unit":"\#(GameAnalysis.unit)"}"#
        guard fields.hasPrefix(#"{"accuracy":"#), fields.hasSuffix(unitTail),
            let mistakes = fields.range(of: #","mistakes":["#), hasSortedKeys(fields)
        else { return nil }
        var line = String(fields[..<mistakes.lowerBound])
        line.reserveCapacity(fields.utf8.count + 40)
        guard append(id, to: &line) else { return nil }
        line += fields[mistakes.lowerBound...].dropLast(unitTail.count)
        line += #","type":"analysis""#
        line += unitTail
        return line
    }

    /// Whether every object of compact JSON `text` has its keys in the encoder's sorted order
    /// (byte order, for the ASCII keys of the protocol), read in one pass without decoding: text
    /// with an escape in a string, or whose brackets do not match, is not taken.
    static func hasSortedKeys(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // The open containers: for an object, the byte range of its last key so far.
            var open: [(isObject: Bool, lastKey: Range<Int>?)] = []
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "{"): open.append((true, nil))
                case UInt8(ascii: "["): open.append((false, nil))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard open.popLast() != nil else { return false }
                case UInt8(ascii: "\""):
                    var end = index + 1
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                        if bytes[end] == UInt8(ascii: "\\") { return false }
                        end += 1
                    }
                    guard end < bytes.count else { return false }
                    let key = (index + 1)..<end
                    index = end + 1
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { continue }
                    guard let top = open.last, top.isObject else { return false }
                    if let last = top.lastKey,
                        !bytes[last].lexicographicallyPrecedes(bytes[key])
                    {
                        return false
                    }
                    open[open.count - 1].lastKey = key
                    continue
                default: break
                }
                index += 1
            }
            return open.isEmpty
        }
    }
}
