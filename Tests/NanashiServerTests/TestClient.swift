import Foundation
import Logging
import NanashiProtocol
import Synchronization

@testable import NanashiServer

#if canImport(Glibc)
    import Glibc
#endif

/// A plain blocking TCP client, so the tests talk to the server exactly as any client would.
/// Reads block on a thread of their own, never on the test's threads (nor on Dispatch's, which on
/// Linux are the ones the in-process server's tasks run on).
final class TestClient: @unchecked Sendable {
    private var socket: Int32
    private var pending: [UInt8] = []
    private let reader = WorkerThreads(count: 1, name: "test-client")

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects from `source` (any address of 127.0.0.0/8, to act as another client machine);
    /// `receiveBuffer` shrinks the kernel's receive buffer (for a client that never reads).
    init(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // Pieces of a line go out at once, not after the server's delayed acknowledgement.
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        for (call, host, port) in [("bind", source, 0), ("connect", "127.0.0.1", port)] {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
                    return call == "bind" ? bind(socket, $0, length) : connect(socket, $0, length)
                }
            }
            guard status == 0 else {
                // `deinit` runs after a failed init too: it must not close the number again,
                // which by then may be another connection's.
                Glibc.close(socket)
                socket = -1
                throw Failure(description: "\(call)(\(host)) failed")
            }
        }
    }

    deinit {
        reader.stop()
        if socket >= 0 { Glibc.close(socket) }
    }

    /// Sends bytes as they are; returns false if the connection is gone.
    @discardableResult
    func sendBytes(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sends the same bytes `times` times, or until the connection is gone; returns how many
    /// went out. Blocking sends run on a thread of their own, never on the concurrency pool the
    /// in-process server needs to read them.
    func sendRepeatedly(_ bytes: [UInt8], times: Int) async -> Int {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var sent = 0
                while sent < times, self.sendBytes(bytes) { sent += 1 }
                continuation.resume(returning: sent)
            }
        }
    }

    /// Sends one line (the newline is added).
    func send(_ line: String) { sendBytes(Array((line + "\n").utf8)) }

    /// The next line from the server, without its newline.
    func line() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            reader.submit {
                continuation.resume(with: Result { try self.readLine() })
            }
        }
    }

    /// The next message from the server.
    func reply() async throws -> Reply {
        try Wire.reply(fromLine: Array(try await line().utf8))
    }

    /// Sends a line and returns the server's next line.
    func exchange(_ line: String) async throws -> String {
        send(line)
        return try await self.line()
    }

    /// Whether the server closed the connection (reads end-of-file).
    func isClosedByServer() async -> Bool {
        (try? await line()) == nil
    }

    /// Reads lines until the server closes the connection; returns them, or throws if it is
    /// still open after the read timeout.
    func linesUntilClosed() async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            reader.submit {
                var lines: [String] = []
                while true {
                    do {
                        lines.append(try self.readLine())
                    } catch let failure as Failure where failure.description == "closed" {
                        continuation.resume(returning: lines)
                        return
                    } catch {
                        continuation.resume(throwing: error)
                        return
                    }
                }
            }
        }
    }

    /// Closes the connection from this side.
    func close() { shutdown(socket, Int32(SHUT_RDWR)) }

    /// Resets the connection (a close that throws away what is unsent), as a client that
    /// hangs up at once does.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        // Closed with no linger, the kernel sends a reset.
        Glibc.close(socket)
        socket = -1
    }

    /// Stops sending but goes on reading (a half close), as `nc -N` does after its input.
    func finishSending() { shutdown(socket, Int32(SHUT_WR)) }

    private func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            // A reset (the server closed with unread input) counts as closed too.
            guard count > 0 else {
                throw Failure(description: count == 0 || errno == ECONNRESET ? "closed" : "timed out")
            }
            pending += chunk[..<count]
        }
    }
}

/// A server on an OS-assigned port over a temporary database, with test-sized costs and timers.
final class TestServer {
    let database: TemporaryDatabase
    var settings: ServerSettings
    private(set) var server: Server?

    init(
        database: TemporaryDatabase? = nil,
        logger: Logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
        configure: (inout ServerSettings) -> Void = { _ in }
    ) async throws {
        self.database = try database ?? TemporaryDatabase()
        settings = ServerSettings()
        settings.port = 0
        settings.databasePath = self.database.path
        settings.passwordCost = .testing
        settings.pairingInterval = .milliseconds(50)
        settings.abandonGrace = .seconds(30)
        // Every test comes from 127.0.0.1: the per-address limits are tested on their own.
        settings.loginsPerMinute = 10_000
        settings.registrationsPerHour = 10_000
        settings.failedLoginsPerAddressBeforeThrottle = 10_000
        configure(&settings)
        server = try await Server.start(settings, logger: logger)
    }

    var port: Int { server!.port }

    func client(from source: String = "127.0.0.1") throws -> TestClient {
        try TestClient(port: port, from: source)
    }

    func stop() async {
        await server?.stop()
        server = nil
    }
}

/// A wall clock the test moves by hand.
final class ManualWallClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    func read() -> Date { now.withLock { $0 } }
    func advance(by seconds: TimeInterval) { now.withLock { $0 += seconds } }
}
