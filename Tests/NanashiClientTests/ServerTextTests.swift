import NanashiProtocol
import Testing

@testable import NanashiClient

/// The message of an `error` line after `ServerText` has made it safe.
private func shownMessage(_ line: String) throws -> String {
    let reply = try Wire.reply(fromLine: ServerText.withoutControlCharacters(Array(line.utf8)))
    guard case .error(let error) = reply.message else { throw ProtocolError(.badRequest, "not an error") }
    return error.message
}

@Test func controlCharactersInTheServersTextReachTheTerminalAsQuestionMarks() throws {
    // Leaving the alternate screen, then writing the clipboard (OSC 52): escaped in JSON.
    #expect(
        try shownMessage(
            #"{"type":"error","code":"x","message":"\u001b[?1049l\u001B]52;c;aGk=\u0007"}"#)
            == "?[?1049l?]52;c;aGk=?")
    // C1's CSI escaped and raw (UTF-8 C2 9B), DEL raw, carriage return and backspace escaped.
    #expect(
        try shownMessage(
            "{\"type\":\"error\",\"code\":\"x\",\"message\":\"a\\u009b2Jb\u{9B}c\u{7F}d\\re\\bf\"}")
            == "a?2Jb?c?d?e?f")
    // Line feeds and tabs (a PGN's lines), quotes, an escaped backslash before text that looks
    // like an escape, accents and emoji (a surrogate pair) are kept.
    #expect(
        try shownMessage(
            #"{"type":"error","code":"x","message":"1.\n2.\t\"q\" \\u001b \u00e9 \ud83d\ude00 é"}"#)
            == "1.\n2.\t\"q\" \\u001b é 😀 é")
}

@Test func aLineWithNothingToReplaceIsLeftAsItIs() {
    let line = Array(#"{"type":"pong","id":"é"}"#.utf8)
    #expect(ServerText.withoutControlCharacters(line) == line)
}
