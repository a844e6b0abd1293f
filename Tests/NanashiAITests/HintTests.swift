import NanashiAI
import NanashiCore
import NanashiTestSupport
import Testing

@Test(.blocking) func aHintTakesTheWinAndThereIsNoneOnceTheGameIsOver() throws {
    let engine = Engine(hashMegabytes: 1)
    let position = try Position(fen: "7/7/7/7/7/1o5/x6 x 0 1")
    let hint = try #require(engine.hint(for: position))
    #expect(try position.play(hint).outcome == Outcome(winner: .x, reason: .noPieces))
    #expect(engine.hint(for: try position.play(hint)) == nil)
}
