import Foundation
import NanashiClient
import NanashiCore
import NanashiProtocol
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A listening socket on 127.0.0.1 standing in for the server: it accepts one connection and
/// reads and writes raw lines.
private final class FakeServer {
    let port: Int
    private let listener: Int32
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
        close(listener)
    }

    func accept() throws {
        connection = Glibc.accept(listener, nil, nil)
        try #require(connection >= 0)
        // Generous: only a hung client makes a test wait this long.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func line() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
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
}

@Test func requestsGoOutAsOneLineEach() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port))
    defer { connection.close() }
    try server.accept()
    connection.send(Request(.profile(name: "ann"), id: .string("q")))
    connection.send(Request(.seek(TimeControl(initial: 60, increment: 1))))
    #expect(try server.line() == #"{"id":"q","name":"ann","type":"profile"}"#)
    #expect(try server.line() == #"{"increment":1,"initial":60,"type":"seek"}"#)
}

@Test func unknownMessagesAreSkippedAndShutdownIsReported() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port))
    defer { connection.close() }
    try server.accept()
    server.write(
        #"{"type":"news","text":"a message type from a newer server"}"# + "\n"
            + #"{"type":"error","code":"brand_new","message":"a code from a newer server"}"# + "\n"
            + "not json at all\n" + #"{"type":"shutdown"}"# + "\r\n" + #"{"id":7,"type":"pong"}"# + "\n"
            + #"{"type":"pong"}"#)  // no newline: not a message
    server.hangUp()
    var events: [ServerEvent] = []
    for await event in connection.events { events.append(event) }
    #expect(
        events == [
            .reply(
                Reply(.error(ProtocolError(ErrorCode(rawValue: "brand_new"), "a code from a newer server")))),
            .shutdown, .reply(Reply(.pong, id: .integer(7))), .closed,
        ])
}

@Test func aSilentClientPingsSoTheServerKnowsItIsThere() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port), keepAlive: .milliseconds(200))
    defer { connection.close() }
    try server.accept()
    #expect(try server.line() == #"{"type":"ping"}"#)
}

@Test func anUnreachableServerIsOneClearError() async throws {
    let port = try FakeServer().port  // bound, then closed: nobody listens there now
    await #expect(
        throws: ConnectionError(
            address: ServerAddress(host: "127.0.0.1", port: port), reason: "Connection refused")
    ) {
        try await ServerConnection.connect(to: ServerAddress(host: "127.0.0.1", port: port))
    }
}

@Test func aLineOverAMebibyteIsSkippedAndTheNextOneRead() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port))
    defer { connection.close() }
    try server.accept()
    // Far longer than one read: the line reader keeps it across reads, then drops it whole.
    server.write(String(repeating: "x", count: (1 << 20) + 10) + "\n" + #"{"id":8,"type":"pong"}"# + "\n")
    server.hangUp()
    var events: [ServerEvent] = []
    for await event in connection.events { events.append(event) }
    #expect(events == [.reply(Reply(.pong, id: .integer(8))), .closed])
}
