import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import NanashiProtocol
import NanashiRuntime
import NanashiWeb
import Synchronization

extension Transport {
    /// Binds the HTTP port: each connection reads its first request, which either upgrades it to a
    /// WebSocket at `/ws` (then it carries protocol lines) or is the first of its page requests.
    /// TLS when the settings have its files, as on the protocol's port.
    ///
    /// Each connection is counted against `caps` as it is accepted, before its first request: one
    /// over them gets a 503 and is closed at once. A request (head and body) not complete within
    /// `settings.requestTimeout` of the connection opening (or of its last response) closes the
    /// connection (`RequestDeadline`), however slowly its bytes drip in; and one that
    /// sends nothing for the idle timeout (and 10 s) is closed, whatever it is.
    ///
    /// Without `webSockets` (the metrics port) no handshake is upgraded, nor is one with a request
    /// body (`HandshakeRefusal`); an upgrade that fails half way closes the connection.
    package static func bindWeb(
        _ settings: ServerSettings, host: String, port: Int, webSockets: Bool, caps: ConnectionCaps,
        arrivals: KeyedBuckets<String>, metrics: ServerMetrics
    ) async throws -> NIOAsyncChannel<EventLoopFuture<WebConnection>, Never> {
        let (maximumLineLength, clock) = (settings.maximumLineLength, settings.clock)
        // Past the idle timeout, so that the sweep closes a quiet WebSocket first, with its
        // `idle_timeout` message; this one closes what the sweep does not see (pages, and
        // handshakes never finished).
        let idle = TimeAmount(settings.idleTimeout + .seconds(10))
        let requestLimit = TimeAmount(settings.requestTimeout)
        let (allowedOrigins, publicHosts) = (settings.allowedOrigins, settings.publicHosts)
        let tls = try settings.tls?.serverContext()
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.writeBufferWaterMark, value: writeWaterMark(settings))
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelOption(.recvAllocator, value: readAllocator)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    guard
                        try admit(
                            channel, caps: caps, arrivals: arrivals, tls: tls, metrics: metrics,
                            explain: refusalResponse)
                    else { return channel.eventLoop.makeSucceededFuture(WebConnection.refused) }
                    let handshake = HandshakeVerdict()
                    try pipeline.addHandler(BackPressureHandler())
                    if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                    try pipeline.addHandler(IdleCloser())
                    let upgrader = NIOTypedWebSocketServerUpgrader<WebConnection>(
                        maxFrameSize: WebSocketLineCodec.maximumFrameSize,
                        shouldUpgrade: { channel, head in
                            let refusal = HandshakeRefusal(
                                head, webSockets: webSockets, allowedOrigins: allowedOrigins,
                                publicHosts: publicHosts, secure: tls != nil)
                            handshake.refusal.withLock { $0 = refusal }
                            return channel.eventLoop.makeSucceededFuture(refusal == nil ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let pipeline = channel.pipeline.syncOperations
                                try pipeline.addHandler(
                                    WebSocketLineCodec(maximumLength: maximumLineLength, clock: clock))
                                let lines = LineQueue(readAgain: { channel.read() })
                                try pipeline.addHandler(LineReader(queue: lines))
                                return WebConnection.socket(channel, lines)
                            }
                        })
                    let upgrades = NIOTypedHTTPServerUpgradeConfiguration(
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.eventLoop.makeCompletedFuture {
                                WebConnection.pages(
                                    try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                                        wrappingChannelSynchronously: channel),
                                    declined: handshake.declined)
                            }
                        })
                    let upgraded = try pipeline.configureUpgradableHTTPServerPipeline(
                        configuration: .init(upgradeConfiguration: upgrades))
                    let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
                    try pipeline.addHandler(RequestDeadline(limit: requestLimit), position: .after(decoder))
                    try pipeline.addHandler(UpgradeHeadKeeper(handshake), position: .after(decoder))
                    // An upgrade that fails half way (NIO may still answer 101 and install the
                    // WebSocket) leaves nothing open that no one serves.
                    upgraded.whenFailure { _ in channel.close(promise: nil) }
                    return upgraded
                }
            }
    }

    /// The whole HTTP answer to a connection refused at accept, written before any request is read.
    package static func refusalResponse(_ refusal: ProtocolError) -> [UInt8] {
        let body = refusal.message + "\n"
        return Array(
            ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nRetry-After: 60\r\nConnection: close\r\n\r\n" + body)
                .utf8)
    }

    /// Answers page requests in order until the client closes or stops keeping the connection
    /// alive. Every page is a `GET`: a request body is thrown away as it comes, and one over
    /// `maximumBodyBytes` gets 413 and the connection closed.
    ///
    /// Requests spend the connection's budget as protocol lines do (`settings.messageBurst`,
    /// refilled at `settings.messageRate` a second): over it a request gets 429, and at minus
    /// the burst the connection is closed. Each also spends one of its address's `reads`
    /// (`AddressReads`), if given: with none left it gets 429.
    package static func answer(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, site: WebSite,
        settings: ServerSettings, reads: (budget: AddressReads, address: String)? = nil,
        declined: DeclinedUpgrade = .none,
        logger: Logger
    ) async {
        var budget = MessageBudget(settings)
        do {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                var declined = declined
                var bodyBytes = 0
                for try await part in inbound {
                    switch part {
                    case .head(let request):
                        head = request
                        bodyBytes = 0
                    case .body(let bytes):
                        bodyBytes += bytes.readableBytes
                        if bodyBytes > maximumBodyBytes {
                            try await write(
                                .plain(413, "pages take no request body\n"), to: outbound, keepAlive: false,
                                head: false, version: .http1_1)
                            return
                        }
                    case .end:
                        // The first request's head, if the upgrade handler kept it.
                        let first = declined
                        declined = .none
                        if head == nil, case .other(let asked) = first { head = asked }
                        guard let request = head else {
                            // A WebSocket handshake declined: NIO's upgrade handler keeps its head
                            // when it declines, so only the end comes here.
                            let refusal: HandshakeRefusal =
                                if case .webSocket(let refusal) = first { refusal } else { .elsewhere }
                            try await write(
                                .refusing(refusal), to: outbound, keepAlive: false, head: false,
                                version: .http1_1)
                            return
                        }
                        head = nil
                        let response: WebResponse
                        switch budget.spend() {
                        case .within where reads.map { $0.budget.spend($0.address) } == false:
                            response = .plain(429, "too many requests from your address; slow down\n")
                        case .within:
                            response = await site.respond(
                                to: WebRequest(method: request.method.rawValue, target: request.uri))
                        case .over:
                            response = .plain(429, "too many requests; slow down\n")
                        case .cutOff:
                            try await write(
                                .plain(429, "too many requests; closing\n"), to: outbound, keepAlive: false,
                                head: false, version: request.version)
                            return
                        }
                        try await write(
                            response, to: outbound, keepAlive: request.isKeepAlive,
                            head: request.method == .HEAD,
                            version: request.version)
                        if !request.isKeepAlive { return }
                    }
                }
            }
        } catch {
            logger.debug("HTTP connection closed with error: \(error)")
        }
    }

    /// The most bytes of request body a page connection may send.
    package static let maximumBodyBytes = 16 * 1024

    /// Tells a connection that came as the server stops that it is busy, and closes it.
    package static func refuse(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, logger: Logger
    ) async {
        do {
            try await connection.executeThenClose { _, outbound in
                let response = WebResponse(
                    status: 503, contentType: "text/plain; charset=utf-8",
                    body: Array("the server is stopping; try again in a minute\n".utf8),
                    headers: [("Retry-After", "60")])
                try await write(response, to: outbound, keepAlive: false, head: false, version: .http1_1)
            }
        } catch {
            logger.debug("HTTP refusal failed: \(error)")
        }
    }

    private static func write(
        _ response: WebResponse, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        keepAlive: Bool, head: Bool, version: HTTPVersion
    ) async throws {
        var headers = HTTPHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let status = HTTPResponseStatus(statusCode: response.status)
        var parts: [HTTPServerResponsePart] = [
            .head(HTTPResponseHead(version: version, status: status, headers: headers))
        ]
        if !head, !response.body.isEmpty {
            parts.append(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        parts.append(.end(nil))
        try await outbound.write(contentsOf: parts)
    }
}

extension WebResponse {
    fileprivate static func plain(_ status: Int, _ text: String) -> WebResponse {
        WebResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    /// The answer to a WebSocket handshake declined for `refusal`.
    fileprivate static func refusing(_ refusal: HandshakeRefusal) -> WebResponse {
        switch refusal {
        case .elsewhere: .plain(404, "the WebSocket is at /ws\n")
        case .foreignOrigin: .plain(403, "a WebSocket is only opened from this site's pages\n")
        case .carriesBody: .plain(400, "a WebSocket handshake carries no body\n")
        }
    }
}

/// Closes a connection that has sent nothing for the `IdleStateHandler`'s read timeout.
package final class IdleCloser: ChannelInboundHandler, Sendable {
    package typealias InboundIn = NIOAny

    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}

/// What the WebSocket upgrader decided about one connection's handshake, for its page handler.
package final class HandshakeVerdict: Sendable {
    /// Why the upgrader declined the handshake, if it looked at it and did.
    package let refusal = Mutex<HandshakeRefusal?>(nil)
    /// The head of the connection's first request, if it asked to upgrade (`UpgradeHeadKeeper`).
    package let upgradeHead = Mutex<HTTPRequestHead?>(nil)

    /// The first request as the pages are to take it, once the upgrader has declined it.
    package var declined: DeclinedUpgrade {
        guard let head = upgradeHead.withLock({ $0 }) else { return .none }
        let protocols = head.headers[canonicalForm: "upgrade"]
        guard protocols.contains(where: { $0.lowercased() == "websocket" }) else { return .other(head) }
        return .webSocket(refusal.withLock { $0 } ?? .elsewhere)
    }
}

/// A page connection's first request when it asked to upgrade and was not: NIO's upgrade handler
/// keeps that request's head, so the pages see only its end.
package enum DeclinedUpgrade: Sendable {
    /// It did not ask to upgrade.
    case none
    /// A WebSocket handshake refused.
    case webSocket(HandshakeRefusal)
    /// An upgrade to a protocol this server does not speak (`h2c`, which `curl --http2` asks
    /// for): answered as the request it is otherwise.
    case other(HTTPRequestHead)
}

/// Keeps the head of a connection's first request for `HandshakeVerdict` if it asks to upgrade,
/// then leaves the pipeline (whatever comes after the first request is not looked at). Sits
/// right after the HTTP request decoder.
package final class UpgradeHeadKeeper: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias InboundOut = HTTPServerRequestPart

    private let verdict: HandshakeVerdict

    package init(_ verdict: HandshakeVerdict) {
        self.verdict = verdict
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") {
            verdict.upgradeHead.withLock { $0 = head }
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(self, promise: nil)
    }
}
