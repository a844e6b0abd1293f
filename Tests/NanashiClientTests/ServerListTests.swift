import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import Testing

@testable import NanashiClient

// Several servers sharing one database: `--server a:7878,b:7878`, tried in turn.

@Test func aListOfServersIsReadInOrder() throws {
    let list = try ServerList(parsing: "a.example:7000, tls://b.example ,[::1]:7001")
    #expect(
        list.addresses == [
            ServerAddress(host: "a.example", port: 7000),
            ServerAddress(host: "b.example", port: 7878, tls: true),
            ServerAddress(host: "::1", port: 7001),
        ])
    #expect(list.description == "a.example:7000,tls://b.example:7878,[::1]:7001")
    #expect(try ServerList(parsing: list.description) == list)
    #expect(
        try ServerList(parsing: "127.0.0.1:7000") == ServerList(ServerAddress(host: "127.0.0.1", port: 7000)))
}

@Test(arguments: [
    (
        "a:7000,,b:7000",
        "an empty server address in 'a:7000,,b:7000': separate the servers with single commas, like a:7878,b:7878"
    ),
    (
        "a:7000,",
        "an empty server address in 'a:7000,': separate the servers with single commas, like a:7878,b:7878"
    ),
    ("a:7000,b:x", "bad port 'x' in the server address: use 1 to 65535"),
    ("a:7000,b:70000", "bad port '70000' in the server address: use 1 to 65535"),
    ("a:7000,b c", "bad server address 'b c': use HOST:PORT, like 127.0.0.1:7878"),
    (" ", "the server address is empty: use HOST:PORT, like 127.0.0.1:7878"),
])
func aBadListIsRefusedNamingTheBadEntry(text: String, message: String) {
    do throws(ServerAddressError) {
        _ = try ServerList(parsing: text)
        Issue.record("'\(text)' was read as a list")
    } catch {
        #expect(error.description == message)
    }
}

@Test func aCommandsServersAreTheLocalOneUnlessNamedAndTrustCertificatesOnlyOverTLS() throws {
    #expect(try ServerList(option: nil, trusting: nil) == .local)
    #expect(
        try ServerList(option: "tls://a.example,b.example:7001", trusting: "ca.pem").addresses == [
            ServerAddress(host: "a.example", port: 7878, tls: true, trustedCertificates: "ca.pem"),
            ServerAddress(host: "b.example", port: 7001),
        ])
    #expect(throws: ServerAddressError.certificatesWithoutTLS) {
        try ServerList(option: "a.example,b.example", trusting: "ca.pem")
    }
    #expect(throws: ServerAddressError.certificatesWithoutTLS) {
        try ServerList(option: nil, trusting: "ca.pem")
    }
    #expect(throws: ServerAddressError.badPort("x")) { try ServerList(option: "a.example:x", trusting: nil) }
    #expect(ServerAddressError.certificatesWithoutTLS.description == "--ca is for a tls:// server")
}

@Test func attemptsStartAtTheServerThatLastWorkedAndGoRound() throws {
    let list = try ServerList(parsing: "a:1,b:2,c:3")
    let (a, b, c) = (list.addresses[0], list.addresses[1], list.addresses[2])
    #expect(list.attempts() == [a, b, c])
    #expect(list.attempts(from: b) == [b, c, a])
    #expect(list.attempts(from: c) == [c, a, b])
    // One that is not in the list (say, from an older list): from the first.
    #expect(list.attempts(from: ServerAddress(host: "d", port: 4)) == [a, b, c])
}

@Test func theServerAfterOneGoesRoundToTheFirst() throws {
    let list = try ServerList(parsing: "a:1,b:2,c:3")
    let (a, b, c) = (list.addresses[0], list.addresses[1], list.addresses[2])
    #expect(list.server(after: a) == b)
    #expect(list.server(after: c) == a)
    #expect(list.server(after: ServerAddress(host: "d", port: 4)) == nil)
    #expect(ServerList(a).server(after: a) == a)
}

@Test func aPasswordIsWarnedOfForTheFirstServerItWouldCrossANetworkToInClearText() throws {
    #expect(try ServerList(parsing: "127.0.0.1:1,tls://a.example").firstInClearText == nil)
    #expect(
        try ServerList(parsing: "127.0.0.1:1,tls://a.example,b.example").firstInClearText
            == ServerAddress(host: "b.example", port: 7878))
}

@Test(.blocking) func aClientConnectsToTheFirstServerOfTheListThatAnswers() async throws {
    let down = try FakeServer(listening: false)
    let up = try FakeServer()
    let servers = try ServerList(parsing: "127.0.0.1:\(down.port),127.0.0.1:\(up.port)")
    let connection = try await ServerConnection.connect(to: servers, keepAlive: .seconds(3_600))
    defer { connection.close() }
    try up.accept()
    #expect(connection.address == servers.addresses[1])
    connection.send(Request(.ping, id: .string("p")))
    #expect(try up.line() == #"{"id":"p","type":"ping"}"#)
}

@Test func whenNoServerOfTheListAnswersTheErrorNamesEach() async throws {
    let (first, second) = (try FakeServer(listening: false), try FakeServer(listening: false))
    let servers = try ServerList(parsing: "127.0.0.1:\(first.port),127.0.0.1:\(second.port)")
    await #expect(
        throws: ConnectionError(
            address: servers.addresses[0],
            reason: "Connection refused; 127.0.0.1:\(second.port): Connection refused")
    ) {
        try await ServerConnection.connect(to: servers)
    }
}

/// The session's connection attempts run on unstructured tasks, which wait for a thread of
/// Swift concurrency's pool; in a whole run on a loaded machine that can take longer than a fake
/// server's 30 s wait to accept. So each step waits first for the session to hear it is
/// connected (the kernel completes a connection before it is accepted), then accepts at once;
/// the time limit only keeps a client that never connects from holding the run.
@Test(.blocking, .timeLimit(.minutes(5)))
func anOnlineSessionWhoseServerGoesAwayReconnectsToTheNextAndResumesWithItsToken()
    async throws
{
    let (first, second) = (try FakeServer(), try FakeServer())
    let servers = try ServerList(parsing: "127.0.0.1:\(first.port),127.0.0.1:\(second.port)")
    var online = OnlineSession(
        OnlineSession.Settings(
            servers: servers, control: TimeControl(initial: 600, increment: 0), register: false,
            savedSession: .init(name: "ann", token: "tok1"), isInteractive: false, color: false))
    let inbox = SessionInbox()
    /// Carries out the actions as `OnlineRunner` does, but for the wait before reconnecting,
    /// which it skips (the backoff's length is the session's tests' business); returns the lines said.
    func perform(_ actions: [OnlineSession.Action]) -> [String] {
        var (queue, said) = (actions, [String]())
        while !queue.isEmpty {
            switch queue.removeFirst() {
            // No keep-alive ping within the test, however long a loaded machine makes it take
            // (a full run has taken over 30 s here): the lines read are the session's own.
            case .connect: inbox.connect(to: servers, keepAlive: .seconds(3_600))
            case .reconnect: queue += online.handle(.reconnectDue, at: .now)
            case .send(let request): inbox.connection?.send(request)
            case .say(let line): said.append(line)
            default: break
            }
        }
        return said
    }
    func next() async throws -> [String] {
        perform(online.handle(try #require(await inbox.next()), at: .now))
    }

    _ = perform(online.start())
    _ = try await next()  // connected: the saved token goes out
    try first.accept()
    #expect(try first.line() == #"{"id":"auth","token":"tok1","type":"auth"}"#)
    let welcome = Welcome(name: "ann", token: "tok1", rating: 1500, rd: 350, games: 0)
    first.write(Wire.line(Reply(.welcome(welcome), id: .string("auth"))) + "\n")
    _ = try await next()
    #expect(try first.line() == #"{"id":"sync","type":"ping"}"#)
    first.write(Wire.line(Reply(.pong, id: .string("sync"))) + "\n")
    _ = try await next()
    #expect(try first.line() == #"{"id":"seek","increment":0,"initial":600,"type":"seek"}"#)

    // The first server goes away: the session tries it again first (the last that worked), is
    // refused, and goes on to the second, where it resumes with its token.
    try first.goAway()
    #expect(
        try await next() == [
            "the connection to 127.0.0.1:\(first.port),127.0.0.1:\(second.port) was lost; reconnecting in 0.5 s"
        ])
    _ = try await next()
    #expect(inbox.connection?.address == servers.addresses[1])
    try second.accept()
    #expect(try second.line() == #"{"id":"auth","token":"tok1","type":"auth"}"#)
    inbox.connection?.close()
}
