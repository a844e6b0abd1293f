import NanashiCore
import NanashiTestSupport
import Testing

@testable import NanashiTerminal

@Suite struct BoardRendererTests {
    @Test func startPosition() {
        let expected = """
            \(startDiagram)
             x 2 pieces   o 2 pieces
             move 1, x to play

            """
        #expect(BoardRenderer().render(.start) == expected)
    }

    @Test func selectedPieceShowsItsCloneAndJumpTargets() throws {
        var game = Game()
        try game.play(.clone(to: Square("b6")!))
        let text = BoardRenderer().render(
            game.current, lastMove: game.lastMove, selected: Square("a1"), labels: [.x: "you", .o: "level 2"])
        let expected = """
                a  b  c  d  e  f  g
             7  x  .  .  .  .  .  o  7
             6  . [x] .  .  .  .  .  6
             5  .  .  .  .  .  .  .  5
             4  .  .  .  .  .  .  .  4
             3  *  *  *  .  .  .  .  3
             2  +  +  *  .  .  .  .  2
             1 <o> +  *  .  .  .  x  1
                a  b  c  d  e  f  g
             x 3 pieces (you)   o 2 pieces (level 2)
             move 1, o to play
             last move: x b6
             a1 selected: clone (+) b1 a2 b2, jump (*) c1 c2 a3 b3 c3

            """
        #expect(text == expected)
    }

    @Test func lastJumpMarksOriginDestinationAndConvertedPiecesBesideBlockers() throws {
        var game = Game(start: try Position(fen: "6o/7/7/2o-3/7/1x5/7 x 0 1"))
        try game.play(.jump(from: Square("b2")!, to: Square("d3")!))
        let expected = """
                a  b  c  d  e  f  g
             7  .  .  .  .  .  .  o  7
             6  .  .  .  .  .  .  .  6
             5  .  .  .  .  .  .  .  5
             4  .  . (x) #  .  .  .  4
             3  .  .  . [x] .  .  .  3
             2  . [.] .  .  .  .  .  2
             1  .  .  .  .  .  .  .  1
                a  b  c  d  e  f  g
             x 2 pieces   o 1 piece
             move 1, o to play
             last move: x b2d3, converted c4

            """
        #expect(BoardRenderer().render(game.current, lastMove: game.lastMove) == expected)
    }

    @Test func flippedBoardIsSeenFromTheOtherSide() throws {
        let position = try Position(fen: "6o/7/7/2o-3/7/1x5/7 o 0 1")
        let expected = """
                g  f  e  d  c  b  a
             1  .  .  .  .  .  .  .  1
             2  .  .  .  .  .  x  .  2
             3  .  .  .  .  .  .  .  3
             4  .  .  .  #  o  .  .  4
             5  .  .  .  .  .  .  .  5
             6  .  .  .  .  .  .  .  6
             7  o  .  .  .  .  .  .  7
                g  f  e  d  c  b  a
             x 1 piece   o 2 pieces
             move 1, o to play

            """
        #expect(BoardRenderer().render(position, flipped: true) == expected)
    }

    @Test func finishedGame() throws {
        var game = Game(start: try Position(fen: "7/7/7/7/7/1o5/x6 x 0 1"))
        try game.play(.clone(to: Square("a2")!))
        let expected = """
                a  b  c  d  e  f  g
             7  .  .  .  .  .  .  .  7
             6  .  .  .  .  .  .  .  6
             5  .  .  .  .  .  .  .  5
             4  .  .  .  .  .  .  .  4
             3  .  .  .  .  .  .  .  3
             2 [x](x) .  .  .  .  .  2
             1  x  .  .  .  .  .  .  1
                a  b  c  d  e  f  g
             x 3 pieces   o 0 pieces
             game over
             last move: x a2, converted b2

            """
        #expect(BoardRenderer().render(game.current, lastMove: game.lastMove) == expected)
        let end = try #require(game.current.outcome)
        #expect(
            end.summary(final: game.current)
                == "game over: x wins (o has no pieces left)\nfinal count: x 3, o 0\n")
        #expect(end.result == "1-0")
    }

    @Test func colorWrapsEachGlyphInItsOwnStyle() {
        let text = BoardRenderer(color: true).render(.start)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let escape = "\u{1B}["
        #expect(
            lines[1]
                == "\(escape)2m 7 \(escape)0m \(escape)1;31mx\(escape)0m  \(escape)2m.\(escape)0m  \(escape)2m.\(escape)0m  "
                + "\(escape)2m.\(escape)0m  \(escape)2m.\(escape)0m  \(escape)2m.\(escape)0m  \(escape)1;36mo\(escape)0m "
                + "\(escape)2m 7\(escape)0m")
        // Without the escape codes, the colored board is the plain one.
        #expect(text.replacing(/\u{1B}\[[0-9;]*m/, with: "") == BoardRenderer().render(.start))
    }
}
