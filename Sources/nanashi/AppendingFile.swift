import Foundation

/// A file that lines are appended to, created when missing.
struct AppendingFile {
    let handle: FileHandle

    init(path: String) throws(InputError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw InputError("cannot create file '\(path)'")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw InputError("cannot write file '\(path)'")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    func append(_ text: String) { handle.write(Data((text + "\n").utf8)) }

    func append(bytes: [UInt8]) { handle.write(Data(bytes)) }

    func close() { try? handle.close() }
}
