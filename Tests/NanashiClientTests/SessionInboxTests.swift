import NanashiProtocol
import NanashiTestSupport
import Synchronization
import Testing

@testable import NanashiClient

// The plumbing between the outside world and an online session, fed with plain streams.

@Test func eventsComeOutOneAtATimeTheDelayedOnesLater() async {
    let inbox = SessionInbox()
    inbox.post(.reconnectDue, after: .milliseconds(20))
    inbox.post(.tick)
    #expect(await inbox.next() == .tick)
    #expect(await inbox.next() == .reconnectDue)
    inbox.finish()
    #expect(await inbox.next() == nil)
}

@Test func onlyTheNewestConnectionIsHeard() async {
    let inbox = SessionInbox()
    let (old, oldSink) = AsyncStream.makeStream(of: ServerEvent.self)
    let (new, newSink) = AsyncStream.makeStream(of: ServerEvent.self)
    inbox.listen(to: old)
    oldSink.yield(.reply(Reply(.pong)))
    #expect(await inbox.next() == .server(.reply(Reply(.pong))))
    inbox.listen(to: new)
    // The replaced connection's last words are dropped, the new one's come through.
    oldSink.yield(.closed)
    oldSink.finish()
    newSink.yield(.shutdown)
    #expect(await inbox.next() == .server(.shutdown))
}

@Test func typedLinesComeInOrderThenTheEndOfInput() async {
    let inbox = SessionInbox()
    let lines = Mutex(["b6", "quit"])
    inbox.readLines { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
    #expect(await inbox.next() == .line("b6"))
    #expect(await inbox.next() == .line("quit"))
    #expect(await inbox.next() == .inputEnded)
}

@Test func aServerThatCannotBeReachedIsReportedAsAnEvent() async {
    let inbox = SessionInbox()
    // Port 1 on this machine: nothing listens there, so the connection is refused.
    inbox.connect(to: ServerList(ServerAddress(host: "127.0.0.1", port: 1)))
    guard case .unreachable(let reason) = await inbox.next() else {
        Issue.record("expected .unreachable")
        return
    }
    #expect(!reason.isEmpty)
    #expect(inbox.connection == nil)
}

@Test(.blocking) func aServerThatClosesBeforeWelcomingIsNotTriedFirstAgainOneThatWelcomedIs() async throws {
    let (full, spare) = (try FakeServer(), try FakeServer())
    let servers = try ServerList(parsing: "127.0.0.1:\(full.port),127.0.0.1:\(spare.port)")
    let inbox = SessionInbox()
    defer { inbox.connection?.close() }
    // The first server takes the connection, says it is full and closes it.
    inbox.connect(to: servers, keepAlive: .seconds(3_600))
    #expect(await inbox.next() == .connected)
    #expect(inbox.connection?.address == servers.addresses[0])
    try full.accept()
    let busy = ProtocolError(.busy, "the server is full")
    full.write(Wire.line(Reply(.error(busy))) + "\n")
    full.hangUp()
    #expect(await inbox.next() == .server(.reply(Reply(.error(busy)))))
    #expect(await inbox.next() == .server(.closed))
    // It still takes connections, but the next attempt starts from the second server (checked
    // before waiting for the second to accept: otherwise that wait would never end).
    inbox.connect(to: servers, keepAlive: .seconds(3_600))
    #expect(await inbox.next() == .connected)
    try #require(inbox.connection?.address == servers.addresses[1])
    // The second welcomes the session, then drops it: it worked, so it is tried first again.
    try spare.accept()
    let welcome = Welcome(name: "ann", token: "tok1", rating: 1500, rd: 350, games: 0)
    spare.write(Wire.line(Reply(.welcome(welcome), id: .string("auth"))) + "\n")
    spare.hangUp()
    #expect(await inbox.next() == .server(.reply(Reply(.welcome(welcome), id: .string("auth")))))
    #expect(await inbox.next() == .server(.closed))
    inbox.connect(to: servers, keepAlive: .seconds(3_600))
    #expect(await inbox.next() == .connected)
    #expect(inbox.connection?.address == servers.addresses[1])
}
