import Foundation
import NanashiClient
import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Test(.blocking) func requestsGoOutAsOneLineEach() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port), keepAlive: .seconds(3_600))
    defer { connection.close() }
    try server.accept()
    connection.send(Request(.profile(name: "ann"), id: .string("q")))
    connection.send(Request(.seek(TimeControl(initial: 60, increment: 1))))
    #expect(try server.line() == #"{"id":"q","name":"ann","type":"profile"}"#)
    #expect(try server.line() == #"{"increment":1,"initial":60,"type":"seek"}"#)
}

@Test(.blocking) func unknownMessagesAreSkippedAndShutdownIsReported() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port), keepAlive: .seconds(3_600))
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

@Test(.blocking) func aSilentClientPingsSoTheServerKnowsItIsThere() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port), keepAlive: .milliseconds(200))
    defer { connection.close() }
    try server.accept()
    #expect(try server.line() == #"{"type":"ping"}"#)
}

@Test func anUnreachableServerIsOneClearError() async throws {
    let down = try FakeServer(listening: false)  // the port is held, and nobody listens there
    let port = down.port
    await #expect(
        throws: ConnectionError(
            address: ServerAddress(host: "127.0.0.1", port: port), reason: "Connection refused")
    ) {
        try await ServerConnection.connect(to: ServerAddress(host: "127.0.0.1", port: port))
    }
}

@Test(.blocking) func aLineOverAMebibyteIsSkippedAndTheNextOneRead() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port), keepAlive: .seconds(3_600))
    defer { connection.close() }
    try server.accept()
    // Far longer than one read: the line reader keeps it across reads, then drops it whole.
    server.write(String(repeating: "x", count: (1 << 20) + 10) + "\n" + #"{"id":8,"type":"pong"}"# + "\n")
    server.hangUp()
    var events: [ServerEvent] = []
    for await event in connection.events { events.append(event) }
    #expect(events == [.reply(Reply(.pong, id: .integer(8))), .closed])
}

@Test(.blocking) func theServersTextCarriesNoEscapeSequencesToTheTerminal() async throws {
    let server = try FakeServer()
    let connection = try await ServerConnection.connect(
        to: ServerAddress(host: "127.0.0.1", port: server.port), keepAlive: .seconds(3_600))
    defer { connection.close() }
    try server.accept()
    server.write(#"{"type":"error","code":"x","message":"\u001b[?1049lgone"}"# + "\n")
    server.hangUp()
    var events: [ServerEvent] = []
    for await event in connection.events { events.append(event) }
    #expect(
        events == [.reply(Reply(.error(ProtocolError(ErrorCode(rawValue: "x"), "?[?1049lgone")))), .closed])
}
