#if canImport(Glibc)
    import Glibc
#endif

/// A plain blocking TCP client to 127.0.0.1 that speaks in lines, so tests talk to a server
/// exactly as any client would. Reads give up after 60 seconds and writes after 15: only a hung
/// server waits that long, and a machine loaded far past its cores may well be slow for 15 s.
public final class LineClient {
    private var socket: Int32
    private var pending: [UInt8] = []

    /// Why the client could not go on.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    /// Connects from `source` (any address of 127.0.0.0/8, to act as another client machine);
    /// `receiveBuffer` shrinks the kernel's receive buffer (for a client that never reads);
    /// `sendTimeout` is how long a send may block before it fails (seconds).
    public init(
        port: Int, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil, sendTimeout: Int = 15
    ) throws(Failure) {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendLimit = timeval(tv_sec: sendTimeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &sendLimit, socklen_t(MemoryLayout<timeval>.size))
        // Pieces of a line go out at once, not after the server's delayed acknowledgement.
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        for (call, host, port) in [("bind", source, 0), ("connect", "127.0.0.1", port)] {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            let socket = socket
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
                self.socket = -1
                throw Failure(description: "\(call)(\(host)) failed")
            }
        }
    }

    deinit { if socket >= 0 { Glibc.close(socket) } }

    /// Sends bytes as they are; returns false if the connection is gone.
    @discardableResult
    public func sendBytes(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            // A signal caught by the process fails a send that has a timeout with EINTR: again.
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends one line (the newline is added).
    public func send(_ line: String) { sendBytes(Array((line + "\n").utf8)) }

    /// The next line, or `nil` once the server has closed the connection (a reset, when the
    /// server closed with input unread, counts as closed too).
    public func nextLine() throws(Failure) -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard try receiveMore() else { return nil }
        }
    }

    /// Whether the server has sent something not yet read, or closed, without waiting for it.
    public func hasInput() -> Bool {
        guard pending.isEmpty else { return true }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) >= 0
    }

    /// Exactly `count` bytes, or `nil` if the server closes first.
    public func bytes(_ count: Int) throws(Failure) -> [UInt8]? {
        while pending.count < count {
            guard try receiveMore() else { return nil }
        }
        let bytes = Array(pending[..<count])
        pending.removeSubrange(..<count)
        return bytes
    }

    /// The bytes up to and including the first `delimiter`, or `nil` if the server closes first.
    public func bytes(through delimiter: [UInt8]) throws(Failure) -> [UInt8]? {
        while true {
            if let end = pending.indices.first(where: { pending[$0...].starts(with: delimiter) }) {
                return try bytes(end + delimiter.count)
            }
            guard try receiveMore() else { return nil }
        }
    }

    /// Everything until the server closes the connection.
    public func rest() throws(Failure) -> [UInt8] {
        while try receiveMore() {}
        defer { pending = [] }
        return pending
    }

    /// Reads what the socket has into `pending`; false once the server has closed. A signal
    /// caught by the process while it waits (other tests start and stop child processes) fails
    /// `recv` with EINTR, since the kernel never restarts a call with a timeout: it waits again.
    private func receiveMore() throws(Failure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno == ECONNRESET) { return false }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "the server did not answer in time") }
            pending += chunk[..<count]
            return true
        }
    }

    /// The next line; throws if the server closed the connection.
    public func line() throws(Failure) -> String {
        guard let line = try nextLine() else {
            throw Failure(description: "the server closed the connection")
        }
        return line
    }

    /// Sends a line and returns the server's next line.
    public func exchange(_ line: String) throws(Failure) -> String {
        send(line)
        return try self.line()
    }

    /// Closes both directions.
    public func close() { shutdown(socket, Int32(SHUT_RDWR)) }

    /// Resets the connection (a close that throws away what is unsent), as a client that
    /// hangs up at once does.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        // Closed with no linger, the kernel sends a reset.
        Glibc.close(socket)
        socket = -1
    }

    /// Stops sending but goes on reading (a half close), as `nc -N` does after its input.
    public func finishSending() { shutdown(socket, Int32(SHUT_WR)) }
}
