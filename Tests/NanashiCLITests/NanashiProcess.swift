import Foundation

/// Runs the built `nanashi` executable, as a user would from a shell.
struct NanashiProcess {
    /// What one run printed and how it ended.
    struct Result {
        let stdout: String
        let stderr: String
        let status: Int32
    }

    /// The executable, next to the test bundle in the build's products folder.
    static let executable: URL = {
        var folder = Bundle.main.bundleURL
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folder = bundle.bundleURL.deletingLastPathComponent()
        }
        let candidates = [
            folder.appendingPathComponent("nanashi"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "nanashi"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// Runs `nanashi` with `arguments`, feeding `input` on standard input, and waits for it to end.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws
        -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty process never blocks on a full pipe.
        let group = DispatchGroup()
        let errorData = Collected()
        group.enter()
        DispatchQueue.global().async {
            errorData.data = stderr.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.data, as: UTF8.self),
            status: process.terminationStatus)
    }
}

/// Bytes read on another thread; the dispatch group's wait orders the write before the read.
private final class Collected: @unchecked Sendable {
    var data = Data()
}
