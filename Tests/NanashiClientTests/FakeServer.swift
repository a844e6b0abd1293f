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

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, $0, &length) == 0
            }
        }
        try #require(ready)
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        if connection >= 0 { close(connection) }
        if listener >= 0 { close(listener) }
    }

    /// Waits for the client's connection. Blocking: for `.blocking` tests.
    func accept() throws {
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

    /// Hangs up and stops listening: the server is gone, and connecting to its port is refused.
    func goAway() {
        hangUp()
        close(listener)
        listener = -1
    }
}
