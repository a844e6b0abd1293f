import Foundation

/// A file that lines or bytes are appended to, created when missing: a match's PGN, self-play data.
public struct AppendingFile: Sendable {
    /// The file cannot be created or written.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    let handle: FileHandle

    public init(path: String) throws(Problem) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw Problem(description: "cannot create file '\(path)'")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw Problem(description: "cannot write file '\(path)'")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    /// Writes `text` and a line break at the end of the file.
    public func append(_ text: String) { handle.write(Data((text + "\n").utf8)) }

    /// Writes `bytes` at the end of the file.
    public func append(bytes: [UInt8]) { handle.write(Data(bytes)) }

    public func close() { try? handle.close() }
}
