import Foundation

/// The built `nanashi` executable, run as a user would run it.
enum Executable {
    /// What one run printed and how it exited.
    struct Run {
        var output: String
        var errors: String
        var status: Int32
    }

    /// The binary next to the test bundle (`.build/debug/nanashi`).
    static let url: URL = {
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            candidates.append(
                URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("nanashi"))
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("nanashi"))
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("nanashi"))
        candidates.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
                ".build/debug/nanashi"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? candidates[candidates.count - 1]
    }()

    /// Runs `nanashi arguments` with `input` piped to standard input, to the end.
    static func run(_ arguments: [String], input: String, environment: [String: String] = [:]) throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("input")
        try input.write(to: inputFile, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        let errorData = Locked<Data>(Data())
        let errorReader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.done { usleep(1_000) }
        return Run(
            output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData.value, as: UTF8.self),
            status: process.terminationStatus)
    }
}

/// A value written once by another thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    private var isSet = false

    init(_ value: Value) { stored = value }

    func set(_ value: Value) {
        lock.lock()
        stored = value
        isSet = true
        lock.unlock()
    }

    var done: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isSet
    }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// A running `nanashi` driven a line at a time: read its output up to a prompt, then answer.
final class Session {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// Everything printed so far.
    private(set) var transcript = ""

    init(_ arguments: [String]) throws {
        process.executableURL = Executable.url
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Reads until the output ends with `>` and a space (a prompt); returns what was read, or `nil`
    /// when the program's output ended.
    func readToPrompt() -> String? {
        var chunk = ""
        while !chunk.hasSuffix("> ") {
            let data = output.fileHandleForReading.availableData
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
        transcript += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus
    }
}
