import Testing

@testable import NanashiProtocol

@Test func theLevelsAreAskedForAndListed() throws {
    #expect(
        try Wire.request(fromLine: Array(#"{"type":"levels","id":4}"#.utf8))
            == Request(.levels, id: .integer(4)))
    #expect(Wire.line(Request(.levels)) == #"{"type":"levels"}"#)
    let reply = Reply(
        .levels([LevelEntry(level: 1, elo: 500), LevelEntry(level: 2, elo: 640)]), id: .integer(4))
    let line = Wire.line(reply)
    #expect(line == #"{"id":4,"levels":[{"elo":500,"level":1},{"elo":640,"level":2}],"type":"levels"}"#)
    #expect(try Wire.reply(fromLine: Array(line.utf8)) == reply)
}
