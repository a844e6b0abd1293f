import NIOCore
import NIOEmbedded
import NIOHTTP1
import NanashiProtocol
import NanashiServerTestSupport
import NanashiTransport
import Testing

@testable import NanashiServer

@Suite struct AcceptTests {
    @Test(arguments: [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:198.51.100.9", "198.51.100.9"),
    ])
    func addressesAreCountedByIPv4AddressOrIPv6Prefix(address: String, key: String) throws {
        #expect(ClientAddress.key(try SocketAddress(ipAddress: address, port: 4242)) == key)
    }

    @Test func capsRefuseThenDropWhenDescriptorsRunShort() {
        let caps = ConnectionCaps(maximum: 100, perAddress: 2, descriptors: 8)
        // A quarter of the descriptors (at most 256) is kept to tell refusals why.
        #expect(caps.maximum == 6)
        #expect(ConnectionCaps(maximum: 20_000, perAddress: 64, descriptors: 20_480).maximum == 20_000)
        #expect(ConnectionCaps(maximum: 20_000, perAddress: 64, descriptors: 1_000).maximum == 750)
        let busy = ProtocolError(.busy, "the server is full; try again in a minute")
        let tooMany = ProtocolError(.rateLimited, "too many connections from your address (at most 2)")
        let verdicts = ["a", "a", "a", "b", "c", "d", "e", "f", "g", "h"].map { caps.admit($0) }
        #expect(
            verdicts == [
                .admitted, .admitted, .refused(tooMany), .admitted, .admitted, .admitted, .admitted,
                .refused(busy), .dropped, .dropped,
            ])
        caps.release("a", verdicts[0])
        caps.release("a", verdicts[2])
        #expect(caps.admit("a") == .admitted)
        #expect(ConnectionCaps.descriptorBudget(limit: 1024, open: 20) == 1024 - 20 - ConnectionCaps.reserve)
    }

    /// An address is told why it is refused at most as often at once as it may connect: past
    /// that it is dropped without a word, and the descriptors it would hold stay for others.
    @Test func anAddressIsRefusedAtMostItsShareAtOnce() {
        let caps = ConnectionCaps(maximum: 100, perAddress: 2, descriptors: 200)
        let tooMany = ProtocolError(.rateLimited, "too many connections from your address (at most 2)")
        let flood = (0..<6).map { _ in caps.admit("a") }
        #expect(flood == [.admitted, .admitted, .refused(tooMany), .refused(tooMany), .dropped, .dropped])
        // Others are admitted (and refused) as before.
        #expect(caps.admit("b") == .admitted)
        // Once a refusal has been told and closed, the address may be told again.
        caps.release("a", flood[2])
        #expect(caps.admit("a") == .refused(tooMany))
        #expect(caps.admit("a") == .dropped)
    }

    @Test(
        arguments: [
            ("https://localhost:8080", "localhost:8080", true),
            ("https://127.0.0.1:7879", "127.0.0.1:7879", true),
            ("https://[::1]:7879", "[::1]:7879", true), ("http://localhost:8080", "localhost:8080", false),
            ("https://Nanashi.example", "nanashi.example", true),
            ("https://nanashi.example:8443", "nanashi.example:8443", true),
            ("https://elsewhere.example", "nanashi.example", false), ("null", "nanashi.example", false),
            ("https://friend.example/", "nanashi.example", true), ("http://nanashi.example", nil, false),
            // The scheme counts: this port serves TLS.
            ("http://nanashi.example", "nanashi.example", false),
            // A name rebound to this server's address (DNS rebinding) is no name of the server's.
            ("https://evil.example:8443", "evil.example:8443", false),
            ("https://friend.example", "evil.example", true),
        ] as [(String, String?, Bool)])
    func aWebSocketOpensFromTheServersOwnOriginOrANamedOne(origin: String, host: String?, allowed: Bool) {
        #expect(
            WebSocketOrigin.isAllowed(
                origin: origin, host: host, allowed: ["https://friend.example"],
                publicHosts: ["nanashi.example"],
                secure: true)
                == allowed)
        #expect(WebSocketOrigin.isAllowed(origin: nil, host: host, allowed: []))
    }

    /// With no name given, only `localhost` and addresses are the server's own, over the
    /// port's own scheme; a rebound name is refused.
    @Test func aReboundNameIsNoHostOfTheServers() {
        #expect(
            WebSocketOrigin.isAllowed(origin: "http://localhost:7879", host: "localhost:7879", allowed: []))
        #expect(
            !WebSocketOrigin.isAllowed(origin: "https://localhost:7879", host: "localhost:7879", allowed: []))
        #expect(
            !WebSocketOrigin.isAllowed(
                origin: "http://evil.example:7879", host: "evil.example:7879", allowed: []))
        #expect(!WebSocketOrigin.isAllowed(origin: "http://10.0.0.300", host: "10.0.0.300", allowed: []))
        // The names of `--allow-origin` are the server's too.
        #expect(
            WebSocketOrigin.isAllowed(
                origin: "http://friend.example", host: "friend.example", allowed: ["https://friend.example"]))
        #expect(
            WebSocketOrigin.isAllowed(
                origin: "http://play.example", host: "play.example", allowed: [],
                publicHosts: ["play.example:80"])
                == false)
        #expect(
            WebSocketOrigin.isAllowed(
                origin: "http://play.example:80", host: "play.example:80", allowed: [],
                publicHosts: ["play.example:80"]))
        for good in ["example.org", "example.org:8443", "[::1]:80"] {
            #expect(WebSocketOrigin.isWellFormedHost(good))
        }
        for bad in ["", "https://example.org", "a b", "example.org/x", "é.example"] {
            #expect(!WebSocketOrigin.isWellFormedHost(bad))
        }
    }
}

/// The request deadline on an `EmbeddedEventLoop`, whose clock the test moves.
@Suite struct RequestDeadlineTests {
    private func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
        try channel.pipeline.syncOperations.addHandler(RequestDeadline(limit: .seconds(10)))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        return channel
    }

    @Test func aHeadDrippingInIsCutAtTheDeadline() throws {
        let channel = try connection()
        for byte in "GET / HTTP/1.1\r\nHo".utf8.prefix(9) {
            try channel.writeInbound(ByteBuffer(bytes: [byte]))
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// A whole head does not stop it while the body it announced drips in (such a connection
    /// was once held open by a byte every idle timeout, for as long as the body lasted).
    @Test func aBodyDrippingInIsCutAtTheDeadline() throws {
        let channel = try connection()
        try channel.writeInbound(
            ByteBuffer(string: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"))
        for _ in 0..<9 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
            try channel.writeInbound(ByteBuffer(string: "a"))
        }
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    /// A request whose body ends in time is served: the deadline stops at its end.
    @Test func aBodyEndingInTimeStopsTheDeadline() throws {
        let channel = try connection()
        try channel.writeInbound(
            ByteBuffer(string: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\na"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try channel.writeInbound(ByteBuffer(string: "b"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
    }

    @Test func aWholeRequestStopsTheDeadlineAndItsResponseStartsTheNext() throws {
        let channel = try connection()
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        try channel.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        try channel.writeOutbound(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(9_999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test func anUpgradedConnectionHasNoDeadline() throws {
        let channel = try connection()
        try channel.writeInbound(ByteBuffer(string: "GET /ws HTTP/1.1\r\nHost: x\r\n\r\n"))
        try channel.writeOutbound(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .switchingProtocols)))
        channel.embeddedEventLoop.advanceTime(by: .seconds(3600))
        #expect(channel.isActive)
    }
}

/// The TCP line decoder on an `EmbeddedChannel`, fed read by read.
@Suite struct LineDecoderTests {
    /// A line of the longest length whose `\r\n` is split across two reads is the same line as
    /// when it comes whole (its `\r` once made it too long while the `\n` was still to come).
    @Test func aLongestLineWhoseLineEndIsSplitIsALine() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(LineDecoder(maximumLength: 8, clock: TestClock())))
        try channel.writeInbound(ByteBuffer(string: "12345678\r"))
        try channel.writeInbound(ByteBuffer(string: "\n123456789\r"))
        try channel.writeInbound(ByteBuffer(string: "\n"))
        #expect(try channel.readInbound(as: ReceivedLine.self)?.event == .line(Array("12345678".utf8)))
        #expect(try channel.readInbound(as: ReceivedLine.self)?.event == .tooLong)
        #expect(try channel.readInbound(as: ReceivedLine.self) == nil)
    }
}
