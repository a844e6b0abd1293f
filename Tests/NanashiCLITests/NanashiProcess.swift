import Foundation
import NanashiSubprocess
import NanashiTestSupport

/// Runs the built `nanashi` executable, as a user would from a shell.
struct NanashiProcess {
    /// What one run printed and how it ended.
    struct Result {
        let stdout: String
        let stderr: String
        let status: Int32
    }

    /// Runs `nanashi` with `arguments`, feeding `input` on standard input, and waits for it to end.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws
        -> Result
    {
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        let child = try Subprocess(
            NanashiExecutable.url.path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stdin: stdin.fileHandleForReading.fileDescriptor,
            stdout: stdout.fileHandleForWriting.fileDescriptor,
            stderr: stderr.fileHandleForWriting.fileDescriptor)
        // The child's ends, closed here so that reading the pipes ends when the child does.
        try stdin.fileHandleForReading.close()
        try stdout.fileHandleForWriting.close()
        try stderr.fileHandleForWriting.close()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty process never blocks on a full pipe;
        // standard error on a thread of its own (Dispatch's threads run the process's tasks too).
        let group = DispatchGroup()
        let errorData = Collected()
        group.enter()
        Thread.detachNewThread {
            errorData.data = stderr.fileHandleForReading.restUntilEnd()
            group.leave()
        }
        let outputData = stdout.fileHandleForReading.restUntilEnd()
        group.wait()
        let status = child.wait().shellStatus
        return Result(
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.data, as: UTF8.self),
            status: status)
    }
}

/// Bytes read on another thread; the dispatch group's wait orders the write before the read.
private final class Collected: @unchecked Sendable {
    var data = Data()
}
