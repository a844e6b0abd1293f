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
            let mistakes = fields.range(of: #","mistakes":["#)
        else { return nil }
        var line = String(fields[..<mistakes.lowerBound])
        line.reserveCapacity(fields.utf8.count + 40)
        guard append(id, to: &line) else { return nil }
        line += fields[mistakes.lowerBound...].dropLast(unitTail.count)
        line += #","type":"analysis""#
        line += unitTail
        return line
    }
}
