import NanashiProtocol
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
