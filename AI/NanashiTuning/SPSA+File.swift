import Foundation
import NanashiAI

extension SPSA {
    /// The run saved at `path` if there is one (to resume), else a new run of `iterations` from
    /// `start` at `rate`.
    ///
    /// - Throws: `ParameterError` for a file that is not a saved run, or one of other parameters
    ///   than today's `SearchParameters.tunables`.
    public static func resuming(
        _ path: String, start: SearchParameters, iterations: Int, rate: Double = 0.002
    ) throws(ParameterError) -> (run: SPSA, resumed: Bool) {
        guard FileManager.default.fileExists(atPath: path) else {
            return (SPSA(start: start, iterations: iterations, rate: rate), false)
        }
        guard let data = FileManager.default.contents(atPath: path),
            let run = try? JSONDecoder().decode(SPSA.self, from: data)
        else {
            throw ParameterError("'\(path)' is not a saved SPSA run")
        }
        guard run.parameters.map(\.name) == SearchParameters.tunables.map(\.name) else {
            throw ParameterError("'\(path)' tunes other parameters than this build's; start a new file")
        }
        return (run, true)
    }

    /// Writes the run to `path` (replacing it whole, so that a stop midway leaves the last
    /// save), and its values rounded, as `nanashi uai --parameters` reads them, to `valuesPath`.
    public func save(to path: String, values valuesPath: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
        let header = "# nanashi tune --spsa: \(completed) of \(iterations) iterations\n"
        try (header + current.text).write(toFile: valuesPath, atomically: true, encoding: .utf8)
    }
}
