import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiTuning

@Suite(.blocking) struct SelfPlayTests {
    @Test func writesLegalPositionsWithTheGamesResult() throws {
        let selfPlay = SelfPlay(nodes: 300)
        for index in 0..<4 {
            let game = selfPlay.play(seed: 3, index: index)
            #expect(!game.lines.isEmpty)
            #expect(game.plies > game.lines.count)
            let results = Set(game.lines.map { $0.split(separator: " ").last.map(String.init) ?? "" })
            #expect(results.count == 1)
            #expect(["1-0", "0-1", "1/2-1/2"].contains(results.first!))
            for line in game.lines {
                let fen = line.split(separator: " ").dropLast().joined(separator: " ")
                let position = try Position(fen: fen)
                #expect(!position.isGameOver && position.hasMove)
            }
        }
    }

    @Test func theSameSeedPlaysTheSameGame() {
        let selfPlay = SelfPlay(nodes: 300)
        #expect(selfPlay.play(seed: 9, index: 2).lines == selfPlay.play(seed: 9, index: 2).lines)
        #expect(selfPlay.play(seed: 9, index: 2).lines != selfPlay.play(seed: 9, index: 3).lines)
    }
}
