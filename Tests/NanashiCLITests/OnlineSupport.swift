import Foundation
import NanashiServerTestSupport
import NanashiSubprocess
import NanashiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `nanashi serve` on an OS-assigned port with a database in a temporary folder where ann
/// and bob (password `password1`) have accounts already; stopped (and its folder removed) by
/// `stop()`.
final class ServerUnderTest {
    let folder: URL
    private let server: ServeProcess

    init(grace: Int = 60) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-online-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("server.sqlite").path
        try ServeProcess.addPlayers(["ann": "password1", "bob": "password1"], to: database)
        server = try ServeProcess(database: database, arguments: ["--grace", String(grace)])
    }

    var port: Int { server.port }
    var address: String { server.address }

    /// A fresh configuration folder for one player's client.
    func configFolder(_ name: String) throws -> String {
        let path = folder.appendingPathComponent("config-\(name)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A test's own failure with a message.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A running `nanashi online` (or another subcommand, such as `watch`) whose input the test
/// writes and whose output it watches.
final class OnlineClient: @unchecked Sendable {
    private let process: Subprocess
    private let input = Pipe()
    private let lock = NSLock()
    private var output = ""
    private var ended = false

    init(
        _ arguments: [String], command: String = "online", configHome: String,
        environment: [String: String] = [:]
    ) throws {
        var variables = ProcessInfo.processInfo.environment
        variables["XDG_CONFIG_HOME"] = configHome
        variables["NANASHI_NAME"] = nil
        variables["NANASHI_PASSWORD"] = nil
        let stdout = Pipe()
        process = try Subprocess(
            NanashiExecutable.url.path, arguments: [command] + arguments,
            environment: variables.merging(environment) { $1 },
            stdin: input.fileHandleForReading.fileDescriptor,
            stdout: stdout.fileHandleForWriting.fileDescriptor,
            stderr: stdout.fileHandleForWriting.fileDescriptor)
        // The child's ends: the output ends when the child does, and closing our input is its end.
        try input.fileHandleForReading.close()
        try stdout.fileHandleForWriting.close()
        let reader = stdout.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = reader.nextChunk()
                lock.withLock {
                    if data.isEmpty { ended = true } else { output += String(decoding: data, as: UTF8.self) }
                }
                if data.isEmpty { return }
            }
        }
    }

    /// Everything printed so far (standard output and error).
    var transcript: String { lock.withLock { output } }

    /// Waits until the output contains `text`, `times` times (generously: the machine may be busy).
    @discardableResult
    func waitFor(_ text: String, times: Int = 1, timeout: TimeInterval = 60) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (now, done) = lock.withLock { (output, ended) }
            if now.components(separatedBy: text).count > times { return now }
            if done { throw TestFailure("output ended without '\(text)':\n\(now)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestFailure("no '\(text)' within \(Int(timeout)) s:\n\(transcript)")
    }

    func send(_ lines: [String]) {
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the process to exit and returns its status; kills it past the timeout.
    func finish(timeout: TimeInterval = 60) throws -> Int32 {
        closeInput()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            stop()
            throw TestFailure("the client did not exit within \(Int(timeout)) s:\n\(transcript)")
        }
        // The output reader sees the end of the pipe after the exit.
        let drained = Date().addingTimeInterval(10)
        while !lock.withLock({ ended }) && Date() < drained { Thread.sleep(forTimeInterval: 0.02) }
        return process.wait().shellStatus
    }

    /// Ends the process at once (its game, if any, goes on without it on the server).
    func stop() {
        process.send(SIGKILL)
        process.wait()
    }

    /// The side this client plays, once its game has started.
    func side(timeout: TimeInterval = 60) throws -> String {
        let text = try waitFor("; type ? for help", timeout: timeout)
        guard let match = text.firstMatch(of: /you play (x|o) against/) else {
            throw TestFailure("no side in:\n\(text)")
        }
        return String(match.1)
    }
}

/// A TCP relay between clients and the server that the test can cut, as a network failure
/// would: every connection through it is closed at once, and new ones are still accepted.
final class Relay: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let target: Int
    private let lock = NSLock()
    private var open: [Int32] = []
    /// The client ends of the open connections.
    private var clients: [Int32] = []
    private var stopped = false
    private var refusing = false

    init(to target: Int) throws {
        self.target = target
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw TestFailure("the relay cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// While refusing, the relay accepts connections and closes them at once, as when the
    /// server cannot be reached.
    func refuse(_ refusing: Bool) {
        lock.withLock { self.refusing = refusing }
    }

    /// Closes every connection through the relay, both ways.
    func cut() {
        let sockets = lock.withLock {
            defer {
                open = []
                clients = []
            }
            return open
        }
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// Sends `line` to every client as if the server had sent it (between the server's lines:
    /// call it when the server has nothing to say).
    func inject(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        for client in lock.withLock({ clients }) {
            _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        cut()
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            if lock.withLock({ refusing }) {
                close(client)
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected != 0 || lock.withLock({ stopped }) {
                close(client)
                close(server)
                continue
            }
            lock.withLock {
                open += [client, server]
                clients.append(client)
            }
            Thread.detachNewThread { Self.pump(from: client, to: server) }
            Thread.detachNewThread { Self.pump(from: server, to: client) }
        }
    }

    /// Copies bytes one way until either side closes, then closes both ways.
    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let sent = buffer.withUnsafeBytes {
                send(destination, $0.baseAddress, count, Int32(MSG_NOSIGNAL))
            }
            if sent != count { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }
}
