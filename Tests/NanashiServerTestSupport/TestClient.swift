import Foundation
import NanashiProtocol
import NanashiRuntime
import NanashiTestSupport

@testable import NanashiServer

/// The shared line client, so the tests talk to the server exactly as any client would. Reads
/// block on a thread of their own, never on the test's threads (nor on Dispatch's, which on
/// Linux are the ones the in-process server's tasks run on).
public final class TestClient: @unchecked Sendable {
    public typealias Failure = LineClient.Failure

    private let connection: LineClient
    private let reader = WorkerThreads(count: 1, name: "test-client")

    /// Connects from `source` (any address of 127.0.0.0/8, to act as another client machine);
    /// `receiveBuffer` shrinks the kernel's receive buffer (for a client that never reads).
    public init(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil) throws {
        connection = try LineClient(port: port, from: source, receiveBuffer: receiveBuffer)
    }

    deinit { reader.stop() }

    /// Sends bytes as they are; returns false if the connection is gone.
    @discardableResult
    public func sendBytes(_ bytes: [UInt8]) -> Bool { connection.sendBytes(bytes) }

    /// Sends the same bytes `times` times, or until the connection is gone; returns how many
    /// went out.
    public func sendRepeatedly(_ bytes: [UInt8], times: Int) async -> Int {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var sent = 0
                while sent < times, self.sendBytes(bytes) { sent += 1 }
                continuation.resume(returning: sent)
            }
        }
    }

    /// Whether the server has sent something not yet read, or closed, without waiting (call it
    /// only while no read is under way).
    public func hasInput() -> Bool { connection.hasInput() }

    /// Sends one line (the newline is added).
    public func send(_ line: String) { connection.send(line) }

    /// The next line from the server, without its newline.
    public func line() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            reader.submit { continuation.resume(with: Result { try self.connection.line() }) }
        }
    }

    /// The next message from the server.
    public func reply() async throws -> Reply {
        try Wire.reply(fromLine: Array(try await line().utf8))
    }

    /// Sends a line and returns the server's next line.
    public func exchange(_ line: String) async throws -> String {
        send(line)
        return try await self.line()
    }

    /// Whether the server closed the connection (reads end-of-file).
    public func isClosedByServer() async -> Bool {
        (try? await line()) == nil
    }

    /// Reads lines until the server closes the connection; returns them, or throws if it is
    /// still open after the read timeout.
    public func linesUntilClosed() async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            reader.submit {
                continuation.resume(
                    with: Result {
                        var lines: [String] = []
                        while let line = try self.connection.nextLine() { lines.append(line) }
                        return lines
                    })
            }
        }
    }

    /// Closes the connection from this side.
    public func close() { connection.close() }

    /// Resets the connection (a close that throws away what is unsent), as a client that
    /// hangs up at once does.
    public func reset() { connection.reset() }

    /// Stops sending but goes on reading (a half close), as `nc -N` does after its input.
    public func finishSending() { connection.finishSending() }
}
