import NIOCore
import NIOEmbedded
import NIOWebSocket
import NanashiServerTestSupport
import NanashiTransport
import Testing

@testable import NanashiServer

/// The WebSocket codec on an `EmbeddedChannel`, fed frame by frame as the frame decoder would.
@Suite struct WebSocketLineCodecTests {
    private let clock = TestClock()

    private func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(WebSocketLineCodec(maximumLength: 4096, clock: clock))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        return channel
    }

    /// A frame as a client sends it: masked.
    private static func frame(fin: Bool, _ opcode: WebSocketOpcode, _ text: String) -> WebSocketFrame {
        let key: WebSocketMaskingKey = [1, 2, 3, 4]
        var data = ByteBuffer(string: text)
        data.webSocketMask(key)
        return WebSocketFrame(fin: fin, opcode: opcode, maskKey: key, data: data)
    }

    /// The close frame's code the codec wrote, if it wrote one.
    private static func closeCode(_ channel: EmbeddedChannel) throws -> WebSocketErrorCode? {
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            guard frame.opcode == .connectionClose else { continue }
            var data = frame.data
            return data.readWebSocketErrorCode()
        }
        return nil
    }

    /// RFC 6455 (5.4): a new message cannot start while one in fragments is open. Restarting
    /// instead let a client send unfinished text frames forever, each starting over.
    @Test(arguments: [WebSocketOpcode.text, .binary])
    func aNewMessageWhileOneIsInFragmentsIsAProtocolError(opcode: WebSocketOpcode) throws {
        let channel = try connection()
        try channel.writeInbound(Self.frame(fin: false, .text, #"{"type":"#))
        try channel.writeInbound(Self.frame(fin: true, opcode, #"{"type":"ping"}"#))
        #expect(try channel.readInbound(as: ReceivedLine.self) == nil)
        #expect(try Self.closeCode(channel) == .protocolError)
        #expect(!channel.isActive)
    }

    /// Every frame that ends no line spends the budget of such frames, an unfinished text frame
    /// and a fragment with bytes in it as much as a ping or an empty fragment: past 20 at once
    /// the connection is closed (1008), and the budget comes back with time.
    @Test func fragmentsThatEndNoLineSpendTheFrameBudget() throws {
        let patient = try connection()
        try patient.writeInbound(Self.frame(fin: false, .text, "{"))
        for _ in 1..<Int(WebSocketLineCodec.controlBurst) {
            try patient.writeInbound(Self.frame(fin: false, .continuation, " "))
        }
        clock.advance(by: .seconds(1))
        try patient.writeInbound(Self.frame(fin: false, .continuation, " "))
        try patient.writeInbound(Self.frame(fin: true, .continuation, "}"))
        #expect(
            try patient.readInbound(as: ReceivedLine.self)?.event
                == .line(Array("{\(String(repeating: " ", count: 20))}".utf8)))
        #expect(patient.isActive)

        let flood = try connection()
        try flood.writeInbound(Self.frame(fin: false, .text, "{"))
        for _ in 0..<Int(WebSocketLineCodec.controlBurst) {
            try flood.writeInbound(Self.frame(fin: false, .continuation, " "))
        }
        #expect(try Self.closeCode(flood) == .policyViolation)
        #expect(!flood.isActive)
    }
}
