import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A listening socket on 127.0.0.1 standing in for the server: it accepts one connection and
/// reads and writes raw lines.
final class FakeServer {
    let port: Int
    private var listener: Int32
    private var connection: Int32 = -1
    private var pending: [UInt8] = []

    /// A server on a port of its own; one not `listening` holds its port bound, so connecting
    /// to it is refused (as to a server that is down) and no other socket of the run can take it.
    init(listening: Bool = true) throws {
        let socket = try Self.boundSocket(port: 0, listening: listening)
        listener = socket.descriptor
        port = socket.port
    }

    /// A socket bound to 127.0.0.1:`port` (0: a free one), listening or not, and its port.
    private static func boundSocket(port: Int, listening: Bool) throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        // Lets a port whose last connection is still in TIME_WAIT be bound again, and lets
        // `goAway` bind its port a second time before it lets the listener go (the same user's
        // sockets only, and none of the servers under test asks for it).
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 1) == 0)
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        if !ready { close(descriptor) }
        try #require(ready, "binding 127.0.0.1:\(port): errno \(errno)")
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    deinit {
        if connection >= 0 { close(connection) }
        if listener >= 0 { close(listener) }
    }

    /// Waits for the client's connection, 30 s at most (a client that never comes fails the
    /// test instead of holding the whole run). Blocking: for `.blocking` tests.
    func accept() throws {
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        var ready = poll(&waiting, 1, 30_000)
        while ready < 0 && errno == EINTR { ready = poll(&waiting, 1, 30_000) }
        try #require(ready == 1, "no client connected to 127.0.0.1:\(port) within 30 s")
        connection = Glibc.accept(listener, nil, nil)
        try #require(connection >= 0)
        // Generous: only a hung client makes a test wait this long.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The client's next line, without its newline. Blocking: for `.blocking` tests.
    func line() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            try #require(count > 0, "the client sent nothing")
            pending += chunk[..<count]
        }
    }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func hangUp() {
        shutdown(connection, Int32(SHUT_RDWR))
    }

    /// Hangs up and stops listening, but keeps the port bound: the server is gone, connecting to
    /// its port is refused, and no other socket of the run can take the port meanwhile. The
    /// port is bound again before the listener closes: closing first left a moment in which
    /// another test's socket could take it (a CI run failed so, binding it again with errno 98).
    func goAway() throws {
        hangUp()
        let holder = try Self.boundSocket(port: port, listening: false).descriptor
        close(listener)
        listener = holder
    }
}
