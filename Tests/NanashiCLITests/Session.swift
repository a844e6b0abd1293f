import Foundation
import NanashiSubprocess
import NanashiTestSupport

/// A running `nanashi` driven a line at a time: read its output up to a prompt, then answer.
final class Session {
    private let process: Subprocess
    private let input = Pipe()
    private let output = Pipe()
    /// Everything printed so far.
    private(set) var transcript = ""

    init(_ arguments: [String]) throws {
        process = try Subprocess(
            NanashiExecutable.url.path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment,
            stdin: input.fileHandleForReading.fileDescriptor,
            stdout: output.fileHandleForWriting.fileDescriptor,
            stderr: Subprocess.nullDevice)
        // The child's ends: its output ends when it does.
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
    }

    /// Reads until the output ends with `>` and a space (a prompt); returns what was read, or `nil`
    /// when the program's output ended.
    func readToPrompt() -> String? {
        var chunk = ""
        while !chunk.hasSuffix("> ") {
            let data = output.fileHandleForReading.nextChunk()
            if data.isEmpty { return nil }
            let text = String(decoding: data, as: UTF8.self)
            chunk += text
            transcript += text
        }
        return chunk
    }

    /// Types one line.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes input and waits for the exit status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        transcript += String(decoding: output.fileHandleForReading.restUntilEnd(), as: UTF8.self)
        return process.wait().shellStatus
    }
}
