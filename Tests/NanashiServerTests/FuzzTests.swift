import Foundation
import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import Testing

@testable import NanashiServer

/// Lines a hostile or broken client might send: noise, protocol lines with bytes flipped,
/// inserted or cut, huge numbers, deep nesting, wrong types, invalid UTF-8, over-long lines.
private struct LineFuzzer {
    var random: SeededGenerator
    let templates: [String]
    let maximumLineLength: Int

    private static let splices = [
        "1e999", "-1e999", "99999999999999999999999999", "-0", "NaN", "null", "true", "[]", "{}", "\"",
        "\\u0000", "\\ud800", "\\", ",", ":", "{", "}", "[", "]", "\"type\"", "\"id\":", "0.5", "\u{FEFF}",
    ]

    mutating func line(_ round: Int) -> [UInt8] {
        var bytes: [UInt8]
        switch round % 8 {
        case 0:
            bytes = noise(Int.random(in: 0...200, using: &random))
        case 1, 2, 3:
            bytes = mutated(Array(templates.randomElement(using: &random)!.utf8))
        case 4:
            let depth = Int.random(in: 100...2000, using: &random)
            let (open, close) = Bool.random(using: &random) ? ("[", "]") : (#"{"a":"#, "}")
            bytes = Array(
                (String(repeating: open, count: depth) + "0" + String(repeating: close, count: depth)).utf8)
        case 5:
            let field = [
                "game", "limit", "offset", "initial", "increment", "id", "type", "move", "name", "token",
            ]
            .randomElement(using: &random)!
            let value = [
                "1e400", "-1e400", "123456789012345678901234567890", "-9223372036854775809",
                "18446744073709551616",
                "3.14", "\"12\"", "[1]", "{\"a\":1}", "null", "true", "\"\"",
                String(repeating: "9", count: 1000),
            ].randomElement(using: &random)!
            let type = ["move", "resign", "seek", "leaderboard", "profile", "auth", "ping", "login"]
                .randomElement(using: &random)!
            bytes = Array(#"{"type":"\#(type)","\#(field)":\#(value),"game":1,"move":"b6"}"#.utf8)
        case 6:
            // Over the limit: a random protocol line padded with one repeated byte (random bytes
            // one by one are slow to make in a debug build).
            let length = Int.random(in: maximumLineLength + 1...maximumLineLength * 3, using: &random)
            bytes = Array(templates.randomElement(using: &random)!.utf8)
            bytes += [UInt8](
                repeating: UInt8.random(in: 0x20...0x7E, using: &random), count: length - bytes.count)
        default:
            // Invalid UTF-8 inside an otherwise good message.
            var line = Array(templates.randomElement(using: &random)!.utf8)
            let bad: [[UInt8]] = [
                [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80],
            ]
            line.insert(
                contentsOf: bad.randomElement(using: &random)!,
                at: Int.random(in: 0...line.count, using: &random))
            bytes = line
        }
        bytes.removeAll { $0 == UInt8(ascii: "\n") }
        return bytes
    }

    /// Random bytes, eight from each draw.
    private mutating func noise(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count { withUnsafeBytes(of: random.next()) { bytes += $0 } }
        return Array(bytes.prefix(count))
    }

    private mutating func mutated(_ line: [UInt8]) -> [UInt8] {
        var line = line
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = Int.random(in: 0...line.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where at < line.count: line[at] = UInt8.random(in: 0...255, using: &random)
            case 1: line.insert(UInt8.random(in: 0x20...0x7E, using: &random), at: at)
            case 2 where at < line.count: line.remove(at: at)
            case 3: line.insert(contentsOf: Array(Self.splices.randomElement(using: &random)!.utf8), at: at)
            default: line = Array(line[..<at])
            }
        }
        return line
    }
}

@Test func fuzzedLinesChangeNoGameAndTheServerServesOn() async throws {
    // Every line spends the message budget, which is tested on its own: room for all of them.
    let server = try await TestServer { $0.messageBurst = 100_000 }
    let paired = try await pairedGame(server)
    let game = paired.game
    for (side, move) in [(Side.x, "b6"), (.o, "f6")] {
        paired.clients[side]!.send(#"{"type":"move","game":\#(game),"move":"\#(move)"}"#)
        for viewer in Side.allCases { _ = try await paired.clients[viewer]!.reply() }
    }
    let fuzz = try server.client()
    try await register(fuzz, "fuzzer", password: "fuzz-password")
    let bystander = try server.client()
    // Messages of every type, by a player who is not in the game: no mutation of them can touch it.
    let templates = [
        #"{"type":"move","game":\#(game),"move":"f2","id":1}"#,
        #"{"type":"resign","game":\#(game),"id":"r"}"#,
        #"{"type":"seek","initial":60,"increment":1}"#, #"{"type":"cancel"}"#, #"{"type":"ping","id":2.5}"#,
        #"{"type":"leaderboard","limit":5,"offset":0}"#, #"{"type":"profile","name":"ann"}"#,
        #"{"type":"auth","token":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}"#,
        #"{"type":"login","name":"fuzzer","password":"wrong-password"}"#,
        #"{"type":"register","name":"fz","password":"x"}"#, #"{"type":"logout"}"#,
    ]
    var fuzzer = LineFuzzer(
        random: SeededGenerator(seed: 20_261_122), templates: templates,
        maximumLineLength: server.settings.maximumLineLength)
    let forbidden: Set<String> = ["start", "moved", "game", "end", "shutdown"]
    for round in 0..<2000 {
        let line = fuzzer.line(round)
        if round % 5 == 0 {
            // Half lines: the same line in pieces.
            let cut = line.isEmpty ? 0 : Int.random(in: 0..<line.count, using: &fuzzer.random)
            fuzz.sendBytes(Array(line[..<cut]))
            fuzz.sendBytes(Array(line[cut...]) + [UInt8(ascii: "\n")])
        } else {
            fuzz.sendBytes(line + [UInt8(ascii: "\n")])
        }
        let reply = try await fuzz.line()
        let decoded = try Wire.reply(fromLine: Array(reply.utf8))
        #expect(!forbidden.contains(decoded.message.type), "\(line) → \(reply)")
        if round % 100 == 0 {
            #expect(
                try await bystander.exchange(#"{"type":"ping","id":\#(round)}"#)
                    == #"{"id":\#(round),"type":"pong"}"#)
        }
    }
    #expect(try await fuzz.exchange(#"{"type":"ping","id":"alive"}"#) == #"{"id":"alive","type":"pong"}"#)

    // The game is as it was, and goes on.
    let expected = try Position.start.play(Move(notation: "b6")).play(Move(notation: "f6"))
    let back = try server.client()
    #expect(try await back.exchange(#"{"type":"auth","token":"\#(paired.tokens[.x]!)"}"#).contains("welcome"))
    guard case .game(let state) = try await back.reply().message else {
        throw TestClient.Failure(description: "expected game")
    }
    #expect(state.game == game && state.moves == ["b6", "f6"] && state.fen == expected.fen)
    back.send(#"{"type":"move","game":\#(game),"move":"f2"}"#)
    for client in [back, paired.clients[.o]!] {
        guard case .moved(let moved) = try await client.reply().message else {
            throw TestClient.Failure(description: "expected moved")
        }
        #expect(moved.ply == 3 && moved.move == "f2")
    }
    await server.stop()
}
