import Foundation
import NanashiAI

extension SearchParameters {
    /// Reads the parameters in the file at `path` (`init(text:)`).
    ///
    /// - Throws: `ParameterError` for a file that cannot be read or a bad line, naming the file.
    public init(file path: String) throws(ParameterError) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ParameterError("cannot read parameters file '\(path)'")
        }
        do {
            try self.init(text: text)
        } catch {
            throw ParameterError("\(path): \(error.description)")
        }
    }
}
