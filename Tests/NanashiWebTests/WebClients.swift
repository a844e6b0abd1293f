import NanashiProtocol
import NanashiTestSupport

/// One HTTP/1.1 exchange as a browser would make it, over a plain socket: the answer's status,
/// headers (names in lower case) and body. Blocking: for `.blocking` tests.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: String

    static func get(_ port: Int, _ target: String, method: String = "GET", from source: String = "127.0.0.1")
        throws -> HTTPReply
    {
        let client = try LineClient(port: port, from: source)
        client.sendBytes(
            Array("\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        return try HTTPReply(String(decoding: client.rest(), as: UTF8.self))
    }

    init(_ text: String) throws {
        guard let split = text.range(of: "\r\n\r\n") else {
            throw LineClient.Failure(description: "no HTTP answer: \(text.prefix(80))")
        }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(
                line[line.index(after: colon)...].drop { $0 == " " })
        }
        body = String(text[split.upperBound...])
    }
}

/// A WebSocket client as a browser's: the handshake at `/ws`, masked frames out, the server's
/// frames in. Blocking: for `.blocking` tests.
final class WebSocketClient {
    struct Frame: Equatable {
        var fin = true
        var opcode: UInt8
        var payload: [UInt8]

        var text: String { String(decoding: payload, as: UTF8.self) }
        static let text: UInt8 = 1, binary: UInt8 = 2, close: UInt8 = 8, ping: UInt8 = 9, pong: UInt8 = 10
    }

    private let connection: LineClient
    /// The handshake's status line, `HTTP/1.1 101 Switching Protocols` when upgraded.
    let statusLine: String

    /// `origin`: the `Origin` header a browser would send (none by default, as a terminal's);
    /// `host`: the `Host` header; `receiveBuffer` and `sendTimeout` as `LineClient`'s.
    init(
        port: Int, path: String = "/ws", from source: String = "127.0.0.1", origin: String? = nil,
        host: String = "localhost", receiveBuffer: Int32? = nil, sendTimeout: Int = 15
    ) throws {
        connection = try LineClient(
            port: port, from: source, receiveBuffer: receiveBuffer, sendTimeout: sendTimeout)
        let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
        connection.sendBytes(
            Array(
                """
                GET \(path) HTTP/1.1\r
                Host: \(host)\r
                \(originLine)Upgrade: websocket\r
                Connection: Upgrade\r
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
                Sec-WebSocket-Version: 13\r
                \r

                """.utf8))
        let head = try connection.bytes(through: Array("\r\n\r\n".utf8)) ?? []
        statusLine = String(String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? "")
    }

    /// Sends one protocol message in one text frame.
    func send(_ text: String) { send(Frame(opcode: Frame.text, payload: Array(text.utf8))) }

    /// Sends a frame, masked as clients must (unless `masked` is false, which breaks RFC 6455).
    func send(_ frame: Frame, masked: Bool = true) {
        connection.sendBytes(Self.bytes(of: frame, masked: masked))
    }

    /// Sends bytes as they are (frames made with `bytes(of:)`); false once a send fails.
    @discardableResult
    func sendBytes(_ bytes: [UInt8]) -> Bool { connection.sendBytes(bytes) }

    /// A frame as it goes on the wire.
    static func bytes(of frame: Frame, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(frame.fin ? 0x80 : 0) | frame.opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        let count = frame.payload.count
        if count < 126 {
            bytes.append(maskBit | UInt8(count))
        } else if count < 65536 {
            bytes += [maskBit | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(maskBit | 127)
            bytes += (0..<8).reversed().map { UInt8((count >> ($0 * 8)) & 0xFF) }
        }
        guard masked else { return bytes + frame.payload }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += mask
        bytes += frame.payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }

    /// The server's next frame, or `nil` once it has closed the connection.
    func frame() throws -> Frame? {
        guard let head = try connection.bytes(2) else { return nil }
        var count = Int(head[1] & 0x7F)
        if count == 126 {
            guard let length = try connection.bytes(2) else { return nil }
            count = Int(length[0]) << 8 | Int(length[1])
        } else if count == 127 {
            guard let length = try connection.bytes(8) else { return nil }
            count = length.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = try connection.bytes(count) else { return nil }
        return Frame(fin: head[0] & 0x80 != 0, opcode: head[0] & 0x0F, payload: payload)
    }

    /// The next protocol message's text; throws on anything but a text frame.
    func line() throws -> String {
        guard let frame = try frame(), frame.opcode == Frame.text else {
            throw LineClient.Failure(description: "expected a text frame")
        }
        return frame.text
    }

    func reply() throws -> Reply { try Wire.reply(fromLine: Array(line().utf8)) }

    func exchange(_ text: String) throws -> String {
        send(text)
        return try line()
    }
}
