import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// A test server with its web on an OS-assigned HTTP port.
func webServer(_ configure: (inout ServerSettings) -> Void = { _ in }) async throws -> TestServer {
    try await TestServer { settings in
        settings.httpPort = 0
        settings.metricsPort = 0
        configure(&settings)
    }
}

/// The move that leaves the mover the most pieces ahead: games end fast.
func greedy(_ position: Position) -> Move {
    let side = position.sideToMove
    func lead(_ move: Move) -> Int {
        let next = try! position.play(move)
        return next.pieces(of: side).count - next.pieces(of: side.opponent).count
    }
    return position.legalMoves().max { lead($0) < lead($1) }!
}

/// The samples of a Prometheus text, by name with its labels (`nanashi_logins_total{kind="login"}`).
func samples(_ text: String) -> [String: Double] {
    var result: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
        else {
            continue
        }
        result[String(line[..<space])] = value
    }
    return result
}

@Suite(.blocking) struct WebServerTests {
    @Test func aBrowserAndATerminalPlayAWholeGameAndThePagesShowIt() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        let browser = try WebSocketClient(port: http)
        #expect(browser.statusLine == "HTTP/1.1 101 Switching Protocols")
        let terminal = try server.client()
        let welcome = try browser.exchange(
            #"{"type":"register","name":"webby","password":"password1","id":1}"#)
        #expect(welcome.hasPrefix(#"{"games":0,"id":1,"name":"webby","rating":1500,"rd":350,"token":""#))
        _ = try await terminal.exchange(#"{"type":"register","name":"tty","password":"password1"}"#)
        #expect(
            try browser.exchange(#"{"type":"seek","initial":60,"increment":0}"#) == #"{"type":"seeking"}"#)
        #expect(
            try await terminal.exchange(#"{"type":"seek","initial":60,"increment":0}"#)
                == #"{"type":"seeking"}"#)
        let startLine = try browser.line()
        guard case .start(let start) = try Wire.reply(fromLine: Array(startLine.utf8)).message,
            case .start(let other) = try await terminal.reply().message
        else { throw LineClient.Failure(description: "no start") }
        #expect(start.game == other.game && start.opponent.name == "tty" && other.opponent.name == "webby")
        // The browser is told its moves when it plays first, so its page needs no rules.
        let legal =
            start.color == .x
            ? #","legal":["f1","f2","g2","a6","b6","b7","g1e1","g1e2","g1e3","g1f3","g1g3","a7a5","a7b5","a7c5","a7c6","a7c7"]"#
            : ""
        #expect(
            startLine
                == #"{"color":"\#(start.color)","fen":"x5o/7/7/7/7/7/o5x x 0 1","game":\#(start.game),"increment":0,"initial":60\#(legal),"opponent":{"name":"tty","rating":1500},"type":"start"}"#
        )

        var position = Position.start
        var plies = 0
        var end: [String] = []
        while end.isEmpty {
            let move = greedy(position)
            let message = #"{"type":"move","game":\#(start.game),"move":"\#(move)"}"#
            if position.sideToMove == start.color { browser.send(message) } else { terminal.send(message) }
            let converted = position.captures(by: move).map { "\"\($0)\"" }.joined(separator: ",")
            position = try position.play(move)
            plies += 1
            let seenByBrowser = try browser.line()
            let seenByTerminal = try await terminal.line()
            // Both get the same bytes, the pieces turned included, but for the legal moves that
            // only the player to move next is told (none once the game is over).
            let legal = position.legalMoves().map { "\"\($0)\"" }.joined(separator: ",")
            let (next, other) =
                position.sideToMove == start.color
                ? (seenByBrowser, seenByTerminal) : (seenByTerminal, seenByBrowser)
            #expect(next == other.replacing(#","move":"#, with: #","legal":[\#(legal)],"move":"#))
            #expect(other.contains(#","converted":[\#(converted)],"fen":"\#(position.fen)","game":"#))
            #expect(!other.contains("legal"))
            if position.outcome != nil {
                end = [try browser.line(), try await terminal.line()]
            }
        }
        let outcome = try #require(position.outcome)
        let winner = outcome.winner.map { "\"\($0)\"" } ?? "null"
        #expect(
            end[0].hasPrefix(
                #"{"game":\#(start.game),"outcome":{"reason":"\#(outcome.reason.rawValue)","winner":\#(winner)},"rating":{"#
            ))
        #expect(plies > 4)

        // The game is on every page now.
        let home = try HTTPReply.get(http, "/")
        #expect(home.status == 200)
        #expect(home.body.contains(#"<a href="/player/webby">webby</a>"#))
        #expect(home.body.contains(#"<a href="/player/tty">tty</a>"#))
        let player = try HTTPReply.get(http, "/player/WEBBY")
        #expect(player.status == 200)
        #expect(player.body.contains(#"<a href="/game/\#(start.game)">#\#(start.game)</a>"#))
        let game = try HTTPReply.get(http, "/game/\(start.game)")
        #expect(game.status == 200)
        #expect(game.body.contains(#""fens":["\#(Position.start.fen)""#))
        #expect(game.body.contains(#""\#(position.fen)"]"#))
        let pgn = try HTTPReply.get(http, "/game/\(start.game)/pgn")
        #expect(pgn.status == 200)
        let record = try GameRecord(pgn: pgn.body)
        #expect(record.moves.count == plies)

        // The metrics are not on the public port, but on their own.
        #expect(try HTTPReply.get(http, "/metrics").status == 404)
        let metrics = try HTTPReply.get(try #require(server.server?.metricsPort), "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let values = samples(metrics.body)
        #expect(values["nanashi_moves_total"] == Double(plies))
        #expect(values[#"nanashi_move_latency_seconds_count"#] == Double(plies))
        #expect(values[#"nanashi_logins_total{kind="register"}"#] == 2)
        #expect(values[#"nanashi_logins_total{kind="auth"}"#] == 0)
        #expect(values[#"nanashi_connections{transport="websocket"}"#] == 1)
        #expect(values[#"nanashi_connections{transport="tcp"}"#] == 1)
        #expect(values["nanashi_games_in_progress"] == 0)
        #expect(metrics.body.contains("# TYPE nanashi_move_latency_seconds histogram"))
        await server.stop()
    }

    @Test func aWatcherInTheBrowserSeesTheGameLive() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        let ann = try server.client()
        let bob = try server.client()
        _ = try await ann.exchange(#"{"type":"register","name":"ann","password":"password1"}"#)
        _ = try await bob.exchange(#"{"type":"register","name":"bob","password":"password1"}"#)
        _ = try await ann.exchange(#"{"type":"seek"}"#)
        _ = try await bob.exchange(#"{"type":"seek"}"#)
        guard case .start(let start) = try await ann.reply().message else {
            throw LineClient.Failure(description: "")
        }
        _ = try await bob.reply()
        let page = try HTTPReply.get(http, "/game/\(start.game)")
        #expect(
            page.status == 200
                && page.body.contains(#"{"game":\#(start.game),"levels":[{"elo":500,"level":1},"#))
        let home = try HTTPReply.get(http, "/")
        #expect(home.body.contains(#"<a href="/game/\#(start.game)">watch</a>"#))
        let watcher = try WebSocketClient(port: http)
        let game = try watcher.exchange(#"{"type":"watch","game":\#(start.game)}"#)
        #expect(game.contains(#""fen":"\#(Position.start.fen)""#) && !game.contains("color"))
        let mover = start.color == .x ? ann : bob
        mover.send(#"{"type":"move","game":\#(start.game),"move":"f2"}"#)
        // The watcher's copy: the pieces turned (none), no legal moves (that is the player's).
        let seen = try watcher.line()
        let clocks = try #require(seen.firstIndex(of: "}"))
        #expect(seen.hasPrefix(#"{"clock":{"o":"#))
        #expect(
            seen[seen.index(after: clocks)...]
                == #","converted":[],"fen":"x5o/7/7/7/7/5x1/o5x o 0 1","game":\#(start.game),"move":"f2","ply":1,"type":"moved"}"#
        )
        await server.stop()
    }

    @Test func everyPageAnswersOverHTTP() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        let cases: [(String, Int, String)] = [
            ("/", 200, "text/html; charset=utf-8"),
            ("/play", 200, "text/html; charset=utf-8"),
            ("/static/nanashi.js", 200, "text/javascript; charset=utf-8"),
            ("/static/nanashi.css", 200, "text/css; charset=utf-8"),
            ("/healthz", 200, "text/plain; charset=utf-8"),
            ("/player/nobody", 404, "text/html; charset=utf-8"),
            ("/game/12345", 404, "text/html; charset=utf-8"),
            ("/nothing/here", 404, "text/html; charset=utf-8"),
        ]
        for (target, status, type) in cases {
            let reply = try HTTPReply.get(http, target)
            #expect(reply.status == status, "\(target)")
            #expect(reply.headers["content-type"] == type, "\(target)")
            #expect(reply.headers["content-length"] == String(reply.body.utf8.count), "\(target)")
        }
        let head = try HTTPReply.get(http, "/healthz", method: "HEAD")
        #expect(head.status == 200 && head.headers["content-length"] == "3" && head.body.isEmpty)
        let post = try HTTPReply.get(http, "/play", method: "POST")
        #expect(post.status == 405)
        // A WebSocket anywhere but /ws is not upgraded.
        let elsewhere = try WebSocketClient(port: http, path: "/socket")
        #expect(elsewhere.statusLine == "HTTP/1.1 404 Not Found")
        // A connection kept alive between pages does not hold up the server's stop: it is closed
        // at once (the read would give up after 15 s, long before the 120 s idle timeout).
        let kept = try LineClient(port: http)
        kept.sendBytes(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try kept.bytes(through: Array("ok\n".utf8)) != nil)
        await server.stop()
        #expect(try kept.rest().isEmpty)
    }

    /// A page request that asks to upgrade to a protocol the server does not speak (`curl
    /// --http2` asks for `h2c`) gets the page, as without the header; a WebSocket handshake
    /// elsewhere than `/ws` still gets 404.
    @Test func aRequestAskingForAnotherProtocolGetsThePage() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        for target in ["/play", "/healthz"] {
            let client = try LineClient(port: http)
            client.sendBytes(
                Array(
                    ("GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings, close\r\n"
                        + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n").utf8))
            let reply = try HTTPReply(String(decoding: try client.rest(), as: UTF8.self))
            let plain = try HTTPReply.get(http, target)
            #expect(reply.status == 200 && reply.body == plain.body, "\(target)")
        }
        let elsewhere = try WebSocketClient(port: http, path: "/socket")
        #expect(elsewhere.statusLine == "HTTP/1.1 404 Not Found")
        await server.stop()
    }

    /// A WebSocket handshake with a body is refused (400) and closed. NIO's upgrader fails such
    /// an upgrade half way yet answers 101 and installs the WebSocket once the request ends: a
    /// live socket that no one served, and that neither the idle sweep nor shutdown saw.
    @Test(arguments: [("Content-Length: 1", "x"), ("Transfer-Encoding: chunked", "1\r\nx\r\n0\r\n\r\n")])
    func aWebSocketHandshakeWithABodyIsRefused(header: String, body: String) async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        let client = try LineClient(port: http)
        client.sendBytes(
            Array(
                ("GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "\(header)\r\n\r\n\(body)").utf8))
        let head = String(
            decoding: try #require(try client.bytes(through: Array("\r\n\r\n".utf8))), as: UTF8.self)
        try #require(head.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(head)")
        #expect(
            String(decoding: try client.rest(), as: UTF8.self) == "a WebSocket handshake carries no body\n")
        for _ in 0..<200 where server.server!.openConnections > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.server!.openConnections == 0)
        await server.stop()
    }

    /// Pages spend their address's read budget, over all its connections: connecting again for
    /// each page does not refill it; another address is served.
    @Test func pagesFromOneAddressShareItsReadBudget() async throws {
        let server = try await webServer { $0.readBurstPerAddress = 3 }
        let http = try #require(server.server?.httpPort)
        for _ in 0..<3 { #expect(try HTTPReply.get(http, "/play").status == 200) }
        let refused = try HTTPReply.get(http, "/play")
        #expect(refused.status == 429 && refused.body == "too many requests from your address; slow down\n")
        #expect(try HTTPReply.get(http, "/play", from: "127.0.0.2").status == 200)
        await server.stop()
    }

    @Test func pageRequestsHaveABudgetAndNoBody() async throws {
        let server = try await webServer {
            $0.messageBurst = 5
            $0.messageRate = 0.001
        }
        let http = try #require(server.server?.httpPort)
        let flood = try LineClient(port: http)
        flood.sendBytes(Array(String(repeating: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", count: 20).utf8))
        let answers = String(decoding: try flood.rest(), as: UTF8.self)
        func count(_ text: String) -> Int {
            answers.split(separator: text, omittingEmptySubsequences: false).count - 1
        }
        #expect(count("HTTP/1.1 200 OK") == 5)
        #expect(count("too many requests; slow down\n") == 5)
        #expect(count("too many requests; closing\n") == 1)

        let uploader = try LineClient(port: http)
        uploader.sendBytes(Array("POST /play HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n".utf8))
        uploader.sendBytes([UInt8](repeating: 0x41, count: 17_000))
        let refusal = try HTTPReply(String(decoding: try uploader.rest(), as: UTF8.self))
        #expect(refusal.status == 413 && refusal.body == "pages take no request body\n")
        await server.stop()
    }

    @Test func aHostileBrowserIsRefusedAndHurtsNoOne() async throws {
        let server = try await webServer { $0.maximumConnectionsPerAddress = 4 }
        let http = try #require(server.server?.httpPort)
        let bystander = try WebSocketClient(port: http, from: "127.0.0.2")

        // Too long a message: refused as a line would be; the connection goes on.
        let long = try WebSocketClient(port: http)
        #expect(
            try long.exchange(String(repeating: "x", count: 5000))
                == #"{"code":"line_too_long","message":"a line may have at most 4096 bytes","type":"error"}"#)
        long.send(
            WebSocketClient.Frame(
                fin: false, opcode: WebSocketClient.Frame.text, payload: Array(#"{"type":"#.utf8)))
        long.send(WebSocketClient.Frame(fin: true, opcode: 0, payload: Array(#""ping","id":2}"#.utf8)))
        #expect(try long.line() == #"{"id":2,"type":"pong"}"#)
        #expect(try long.exchange("nonsense").contains(#""code":"bad_json""#))

        // A binary frame is not the protocol: closed with 1003.
        let binary = try WebSocketClient(port: http)
        binary.send(WebSocketClient.Frame(opcode: WebSocketClient.Frame.binary, payload: [1, 2, 3]))
        #expect(
            try binary.frame()
                == WebSocketClient.Frame(opcode: WebSocketClient.Frame.close, payload: [0x03, 0xEB]))
        #expect(try binary.frame() == nil)

        // A frame past the decoder's limit: closed (1009).
        let huge = try WebSocketClient(port: http)
        huge.send(
            WebSocketClient.Frame(
                opcode: WebSocketClient.Frame.text, payload: Array(repeating: 0x20, count: 100_000)))
        #expect(try huge.frame()?.opcode == WebSocketClient.Frame.close)

        // A flood runs out of budget and is closed. Each reply is read before the next message
        // goes: a server that closes with input unread resets the connection, and a reset may
        // drop the last replies before the client reads them (it did once in 20 loaded runs).
        let flood = try WebSocketClient(port: http)
        var replies: [String] = []
        for _ in 0..<200 {
            flood.send(#"{"type":"ping"}"#)
            guard let frame = try flood.frame(), frame.opcode == WebSocketClient.Frame.text else { break }
            replies.append(frame.text)
        }
        #expect(
            replies.contains(
                #"{"code":"rate_limited","message":"too many messages; closing","type":"error"}"#))

        // Pings are answered.
        bystander.send(WebSocketClient.Frame(opcode: WebSocketClient.Frame.ping, payload: [7]))
        #expect(
            try bystander.frame() == WebSocketClient.Frame(opcode: WebSocketClient.Frame.pong, payload: [7]))
        // The per-address cap counts WebSockets and pages with TCP connections.
        let held = try (0..<3).map { _ in try WebSocketClient(port: http, from: "127.0.0.3") }
        #expect(try held[2].exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        let tcp = try server.client(from: "127.0.0.3")
        #expect(try await tcp.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        // One more is refused as it is accepted, before its request is read: a 503 that says why.
        let over = try WebSocketClient(port: http, from: "127.0.0.3")
        #expect(over.statusLine == "HTTP/1.1 503 Service Unavailable")
        let refused = try HTTPReply.get(http, "/healthz", from: "127.0.0.3")
        #expect(
            refused.status == 503 && refused.body == "too many connections from your address (at most 4)\n")
        // And the bystander never noticed.
        #expect(try bystander.exchange(#"{"type":"ping","id":"b"}"#) == #"{"id":"b","type":"pong"}"#)
        #expect(try HTTPReply.get(http, "/healthz").body == "ok\n")
        // Every error sent is counted by its code.
        let values = samples(try HTTPReply.get(try #require(server.server?.metricsPort), "/metrics").body)
        #expect(values[#"nanashi_errors_total{code="line_too_long"}"#] == 1)
        #expect(values[#"nanashi_errors_total{code="bad_json"}"#] == 1)
        #expect((values[#"nanashi_errors_total{code="rate_limited"}"#] ?? 0) >= 2)
        await server.stop()
    }

    @Test func aWebSocketThatPingsWithoutReadingIsHeldBackAndHurtsNoOne() async throws {
        let server = try await webServer { $0.maximumQueuedBytes = 64 * 1024 }
        let http = try #require(server.server?.httpPort)
        let bystander = try WebSocketClient(port: http, from: "127.0.0.2")
        // Pings of 125 bytes, 500 to a send, from a client that reads nothing: the server answers
        // each with a pong, and once 64 KiB of them wait to be written it stops reading, so the
        // client's sends stall (and give up after 2 s) long before 64 MB have gone.
        let deaf = try WebSocketClient(port: http, receiveBuffer: 4096, sendTimeout: 2)
        let ping = WebSocketClient.bytes(
            of: WebSocketClient.Frame(
                opcode: WebSocketClient.Frame.ping, payload: Array(repeating: 0x61, count: 125)))
        let chunk = Array(Array(repeating: ping, count: 500).joined())
        var sent = 0
        while sent < 1000, deaf.sendBytes(chunk) { sent += 1 }
        #expect(
            sent < 250,
            "the server read \(sent * chunk.count) bytes of pings from a client that reads nothing")
        #expect(try bystander.exchange(#"{"type":"ping","id":"b"}"#) == #"{"id":"b","type":"pong"}"#)
        await server.stop()
    }

    /// Pings spend no message budget, so they have their own: a client that reads its pongs and
    /// pings on gets 20, then a close (1008), and cannot keep an event loop answering it.
    @Test func aWebSocketThatFloodsPingsIsClosedAfterItsBudget() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        let bystander = try WebSocketClient(port: http, from: "127.0.0.2")
        let flood = try WebSocketClient(port: http)
        let ping = WebSocketClient.bytes(
            of: WebSocketClient.Frame(opcode: WebSocketClient.Frame.ping, payload: []))
        _ = flood.sendBytes(Array(Array(repeating: ping, count: 30).joined()))
        var frames: [WebSocketClient.Frame] = []
        while let frame = try flood.frame() { frames.append(frame) }
        #expect(
            frames
                == Array(
                    repeating: WebSocketClient.Frame(opcode: WebSocketClient.Frame.pong, payload: []),
                    count: 20)
                + [WebSocketClient.Frame(opcode: WebSocketClient.Frame.close, payload: [0x03, 0xF0])])
        // A client that pings now and then is answered every time: the budget comes back.
        for _ in 0..<25 {
            server.clock.advance(by: .seconds(1))
            bystander.send(WebSocketClient.Frame(opcode: WebSocketClient.Frame.ping, payload: [7]))
            #expect(
                try bystander.frame()
                    == WebSocketClient.Frame(opcode: WebSocketClient.Frame.pong, payload: [7]))
        }
        #expect(try bystander.exchange(#"{"type":"ping","id":"b"}"#) == #"{"id":"b","type":"pong"}"#)
        await server.stop()
    }

    @Test func halfSentRequestHeadsAreCountedAtAcceptAndHurtNoOne() async throws {
        let server = try await webServer {
            $0.maximumConnectionsPerAddress = 4
            // The held heads must outlive this test however slowly a loaded machine runs it: the
            // deadline (the event loop's real timer) is tested on its own elsewhere.
            $0.requestTimeout = .seconds(3600)
        }
        let http = try #require(server.server?.httpPort)
        let half = Array("GET /healthz HTTP/1.1\r\nHo".utf8)
        let held = try (0..<4).map { _ in
            let client = try LineClient(port: http, from: "127.0.0.4")
            client.sendBytes(half)
            return client
        }
        // The four are counted although none has finished its request (once accepted), and a
        // protocol connection from the same address is refused.
        for _ in 0..<200 where server.server!.openConnections < 4 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.server!.openConnections == 4)
        #expect(
            try await server.client(from: "127.0.0.4").linesUntilClosed() == [
                #"{"code":"rate_limited","message":"too many connections from your address (at most 4)","type":"error"}"#
            ])
        // More half-sent heads are told at once, before their heads are done.
        for _ in 0..<6 {
            let client = try LineClient(port: http, from: "127.0.0.4")
            client.sendBytes(half)
            let reply = try HTTPReply(String(decoding: try client.rest(), as: UTF8.self))
            #expect(
                reply.status == 503 && reply.body == "too many connections from your address (at most 4)\n")
        }
        // Others are served meanwhile, on both ports.
        #expect(try HTTPReply.get(http, "/healthz", from: "127.0.0.5").body == "ok\n")
        #expect(
            try await server.client(from: "127.0.0.5").exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        // A held head finished in time gets its page.
        held[0].sendBytes(Array("st: localhost\r\nConnection: close\r\n\r\n".utf8))
        #expect(try HTTPReply(String(decoding: try held[0].rest(), as: UTF8.self)).body == "ok\n")
        await server.stop()
    }

    @Test func aWebSocketBreakingTheRFCIsClosedWithItsCode() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        typealias Frame = WebSocketClient.Frame
        // An unmasked frame from a client: 1002.
        let unmasked = try WebSocketClient(port: http)
        unmasked.send(Frame(opcode: Frame.text, payload: Array(#"{"type":"ping"}"#.utf8)), masked: false)
        #expect(try unmasked.frame() == Frame(opcode: Frame.close, payload: [0x03, 0xEA]))
        #expect(try unmasked.frame() == nil)
        // A fragmented message past the line limit: 1009 at once, not when (if ever) it ends.
        let fragments = try WebSocketClient(port: http)
        fragments.send(Frame(fin: false, opcode: Frame.text, payload: Array(repeating: 0x20, count: 3000)))
        fragments.send(Frame(fin: false, opcode: 0, payload: Array(repeating: 0x20, count: 3000)))
        #expect(try fragments.frame() == Frame(opcode: Frame.close, payload: [0x03, 0xF1]))
        #expect(try fragments.frame() == nil)
        await server.stop()
    }

    @Test func aWebSocketFromAnotherSitesPageIsRefused() async throws {
        let server = try await webServer { $0.allowedOrigins = ["https://nanashi.example"] }
        let http = try #require(server.server?.httpPort)
        let foreign = try WebSocketClient(port: http, origin: "https://elsewhere.example")
        #expect(foreign.statusLine == "HTTP/1.1 403 Forbidden")
        // The server's own pages (served as `localhost`), a named origin, and a terminal (no Origin).
        for origin in ["http://localhost", "https://nanashi.example", nil] {
            let socket = try WebSocketClient(port: http, origin: origin)
            #expect(socket.statusLine == "HTTP/1.1 101 Switching Protocols")
            #expect(try socket.exchange(#"{"type":"ping"}"#) == #"{"type":"pong"}"#)
        }
        await server.stop()
    }

    /// A page whose name was rebound to the server's address (DNS rebinding) sends that name as
    /// both `Host` and `Origin`: refused unless the server names it (`--public-host`), and over
    /// the port's own scheme only.
    @Test func aWebSocketFromAReboundNameIsRefused() async throws {
        let server = try await webServer { $0.publicHosts = ["play.example"] }
        let http = try #require(server.server?.httpPort)
        for (origin, host) in [
            ("http://evil.example:\(http)", "evil.example:\(http)"), ("https://play.example", "play.example"),
            ("http://play.example", "evil.example"),
        ] {
            let refused = try WebSocketClient(port: http, origin: origin, host: host)
            #expect(refused.statusLine == "HTTP/1.1 403 Forbidden", "\(origin) \(host)")
        }
        for (origin, host) in [
            ("http://play.example", "play.example"), ("http://play.example:\(http)", "play.example:\(http)"),
            ("http://127.0.0.1:\(http)", "127.0.0.1:\(http)"),
        ] {
            let socket = try WebSocketClient(port: http, origin: origin, host: host)
            #expect(socket.statusLine == "HTTP/1.1 101 Switching Protocols", "\(origin) \(host)")
        }
        await server.stop()
    }
}

extension WebServerTests {
    /// A challenge without a name is a link: /challenge/ID shows its terms to whoever opens
    /// it; the first other player to accept plays it, a second gets no_such_challenge, and the
    /// link then says it is not open. The challenger cannot accept it; a wrong id is not open.
    @Test func aChallengeByLinkIsTakenByTheFirstToAcceptIt() async throws {
        let server = try await webServer()
        let http = try #require(server.server?.httpPort)
        let (ann, carl, dora) = (try server.client(), try server.client(), try server.client())
        for (client, name) in [(ann, "ann"), (carl, "carl"), (dora, "dora")] {
            _ = try await client.exchange(#"{"type":"register","name":"\#(name)","password":"password1"}"#)
        }
        let sent = try await ann.exchange(#"{"type":"challenge","initial":300,"increment":3,"rated":false}"#)
        guard case .challengeSent(let notice) = try Wire.reply(fromLine: Array(sent.utf8)).message,
            let path = notice.link
        else { throw TestClient.Failure(description: sent) }
        #expect(
            sent
                == #"{"challenge":"\#(notice.challenge)","color":"random","increment":3,"initial":300,"link":"/challenge/\#(notice.challenge)","rated":false,"type":"challenge_sent"}"#
        )
        let page = try HTTPReply.get(http, path)
        #expect(page.status == 200)
        #expect(
            page.body.contains("<strong>ann</strong> (1500) challenges you: 5+3, casual. Log in or register"))
        #expect(
            try await ann.exchange(#"{"type":"accept","challenge":"\#(notice.challenge)"}"#)
                == #"{"code":"bad_request","message":"you cannot accept your own challenge","type":"error"}"#)
        carl.send(#"{"type":"accept","challenge":"\#(notice.challenge)"}"#)
        for client in [ann, carl] {
            guard case .start(let start) = try await client.reply().message else {
                throw TestClient.Failure(description: "expected start")
            }
            #expect(start.opponent.name == (client === ann ? "carl" : "ann"))
        }
        #expect(
            try await dora.exchange(#"{"type":"accept","challenge":"\#(notice.challenge)"}"#).contains(
                #""code":"no_such_challenge""#))
        for target in [path, "/challenge/AAAAAAAAAAAAAAAAAAAAAA", "/challenge/%3Cscript%3E"] {
            let gone = try HTTPReply.get(http, target)
            #expect(gone.status == 410 && gone.body.contains("This challenge is not open"))
        }
        await server.stop()
    }
}
