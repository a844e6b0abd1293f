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

    @Test func aLevelGivenByAPersonIsCheckedByName() throws {
        #expect(try Level(checking: 8, "level") == Level.suggested)
        let tooStrong = #expect(throws: RangeError.self) { try Level(checking: 25, "--ai") }
        #expect(tooStrong?.description == "bad --ai 25: use 1 to 24")
        let tooWeak = #expect(throws: RangeError.self) { try Level(checking: 0, "level") }
        #expect(tooWeak?.description == "bad level 0: use 1 to 24")
    }

    @Test func weakerLevelsSearchShallowerWithMoreRandomness() {
        let levels = Level.range.compactMap(Level.init)
        for (weaker, stronger) in zip(levels, levels.dropFirst()) {
            // A level searches at least as deep as the one below, and with less noise at the same depth.
            #expect((weaker.depth ?? .max) <= (stronger.depth ?? .max))
            if weaker.depth == stronger.depth {
                #expect(weaker.randomness > stronger.randomness || weaker.depth == nil)
            }
            if let weakerNodes = weaker.nodes, let strongerNodes = stronger.nodes {
                #expect(weakerNodes < strongerNodes)
            }
        }
        #expect(Level.strongest.randomness == 0)
        #expect(Level.strongest.depth == nil && Level.strongest.nodes == nil)
        #expect(Level.strongest.thinkTime == .seconds(1))
        #expect(levels.allSatisfy { $0.thinkTime <= .seconds(1) })
    }

    /// `go nodes` or a match's `--nodes` can make a level quicker, never stronger.
    @Test func extraLimitsOnlyTightenALevel() throws {
        let level = try #require(Level(13))
        let clock = SearchLimits.Clock(own: .seconds(60), opponent: .seconds(60))
        #expect(
            level.limits(
                within: SearchLimits(depth: 9, nodes: 1_000_000, movetime: .seconds(5), clock: clock))
                == SearchLimits(depth: 9, nodes: 1_000, movetime: .milliseconds(300), clock: clock))
        #expect(
            level.limits(within: SearchLimits(nodes: 500, movetime: .milliseconds(50)))
                == SearchLimits(nodes: 500, movetime: .milliseconds(50)))
        #expect(Level(2)!.limits(within: .depth(5)) == Level(2)!.limits)
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

    @Test func levelOneOftenMissesACaptureThatLevelThirteenTakes() throws {
        // x can take three of o's five pieces with c4; level 1 takes them in only some games.
        let position = try Position(fen: "6o/7/1ooo3/7/1x5/7/6o x 0 1")
        let captures: (Level) -> Int = { level in
            (0..<40 as Range<UInt64>).count { seed in
                let move = Engine().bestMove(for: position, level: level, random: RandomSource(seed: seed))
                    .bestMove
                guard let next = try? position.play(move) else { return false }
                return next.pieces(of: .o).count <= 2
            }
        }
        let beginner = captures(Level(1)!)
        #expect(beginner > 0 && beginner < 30)
        #expect(captures(Level(13)!) == 40)
    }

    @Test func levelOneVariesItsPlay() throws {
        let moves = Set(
            (0..<20 as Range<UInt64>).map {
                Engine().bestMove(for: .start, level: Level(1)!, random: RandomSource(seed: $0)).bestMove
            })
        #expect(moves.count > 1)
    }
}
