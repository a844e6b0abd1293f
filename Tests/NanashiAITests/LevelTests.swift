import NanashiAI
import NanashiCore
import NanashiTestSupport
import Testing

@Suite(.blocking) struct LevelTests {
    @Test func levelsExistOnlyInTheirRange() {
        #expect(Level(Level.range.lowerBound - 1) == nil)
        #expect(Level(Level.range.upperBound + 1) == nil)
        #expect(Level.range.allSatisfy { Level($0)?.number == $0 })
        #expect(Level.strongest.number == Level.range.upperBound)
    }

    @Test func weakerLevelsSearchShallowerWithMoreRandomness() {
        let levels = Level.range.compactMap(Level.init)
        for (weaker, stronger) in zip(levels, levels.dropFirst()) {
            #expect(weaker.randomness >= stronger.randomness)
            #expect((weaker.depth ?? .max) <= (stronger.depth ?? .max))
        }
        #expect(Level.strongest.randomness == 0)
        #expect(Level.strongest.depth == nil)
        #expect(levels.allSatisfy { $0.thinkTime <= .seconds(1) })
    }

    @Test(arguments: Level.range)
    func everyLevelTakesTheLastPieces(number: Int) throws {
        let position = try Position(fen: "7/3x3/2ooo2/2o1o2/2ooo2/7/6x x 0 1")
        let result = Engine().bestMove(
            for: position, level: Level(number)!, extraLimits: .depth(3), random: RandomSource(seed: 7))
        #expect(result.bestMove.description == "d6d4")
    }

    @Test func theSameSeedPlaysTheSameMoves() throws {
        let level = Level(1)!
        var position = Position.start
        var replay = Position.start
        let first = RandomSource(seed: 42)
        let second = RandomSource(seed: 42)
        for _ in 0..<12 {
            let move = Engine().bestMove(for: position, level: level, random: first).bestMove
            let again = Engine().bestMove(for: replay, level: level, random: second).bestMove
            #expect(move == again)
            position = try position.play(move)
            replay = try replay.play(again)
        }
    }

    @Test func levelOneVariesItsPlay() throws {
        let moves = Set(
            (0..<20 as Range<UInt64>).map {
                Engine().bestMove(for: .start, level: Level(1)!, random: RandomSource(seed: $0)).bestMove
            })
        #expect(moves.count > 1)
    }
}
