import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `nanashi serve` process on an OS-assigned port, killed when the test lets go of it.
final class ServeProcess {
    private let process = Process()
    let port: Int

    /// Starts a server on `database` (fast password hashing, errors-only log) and waits for its
    /// `listening on` line.
    init(database: String, arguments extra: [String] = []) throws {
        process.executableURL = NanashiProcess.executable
        process.arguments =
            [
                "serve", "--port", "0", "--db", database, "--log-level", "error", "--insecure-scrypt-log2n",
                "4",
            ]
            + extra
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var banner = Data()
        while !banner.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the server exited before listening")
            banner += chunk
        }
        let listening = String(decoding: banner, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        try #require(listening.hasPrefix("listening on 127.0.0.1:"), "\(listening)")
        port = try #require(Int(listening.split(separator: ":").last ?? ""))
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// `127.0.0.1:PORT`, as `--server` takes it.
    var address: String { "127.0.0.1:\(port)" }

    /// Sends a signal and waits for the process to end: how it ended and its status.
    @discardableResult
    func stop(with signal: Int32 = SIGTERM) -> (Process.TerminationReason, Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}
