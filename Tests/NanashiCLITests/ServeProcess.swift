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
                // Every test client comes from 127.0.0.1.
                "--logins-per-minute", "1000", "--registrations-per-hour", "1000",
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

/// A blocking line client over TCP to 127.0.0.1, speaking to the server as any client would.
final class LineSocket {
    private let socket: Int32
    private var pending: [UInt8] = []

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(status == 0)
    }

    deinit { Glibc.close(socket) }

    /// Sends one line (the newline is added).
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or `nil` once the server has closed the connection.
    func nextLine() throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) { return nil }
            try #require(count > 0, "the server did not answer")
            pending += chunk[..<count]
        }
    }

    /// The next line; fails the test if the server closed the connection.
    func line() throws -> String {
        try #require(try nextLine(), "the server closed the connection")
    }

    /// Sends a line and returns the server's next line.
    func exchange(_ line: String) throws -> String {
        send(line)
        return try self.line()
    }
}
