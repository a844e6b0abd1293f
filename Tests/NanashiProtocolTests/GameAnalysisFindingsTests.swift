import NanashiCore
import NanashiProtocol
import Testing

/// An analysis read off the searches of a game's positions.
@Suite struct GameAnalysisFindingsTests {
    private static let moves = [Move.clone(to: Square("g2")!), .clone(to: Square("b2")!)]

    private static func finding(_ best: String, _ score: Int) throws -> GameAnalysis.Finding {
        (score, try Move(notation: best))
    }

    /// Evaluations turn to x's side; a move that loses 3 pieces or more is a mistake, with the
    /// move the search preferred; one that loses less is not.
    @Test func mistakesAreTheMovesThatLoseMuch() throws {
        let positions = try [
            Position.start, Position.start.play(Self.moves[0]),
            Position.start.play(Self.moves[0]).play(Self.moves[1]),
        ]
        // x to move: level; o to move: o is 3 pieces up (x lost 300 by g2 rather than f1); x to
        // move: x is 2.5 pieces down (o lost only 50).
        let analysis = GameAnalysis(
            game: 5, depth: 3, positions: positions, moves: Self.moves,
            findings: [try Self.finding("f1", 0), try Self.finding("a2", 300), try Self.finding("f1", -250)])
        #expect(
            analysis
                == GameAnalysis(
                    game: 5, depth: 3, evals: [0, -300, -250],
                    mistakes: [GameAnalysis.Mistake(ply: 1, played: "g2", best: "f1", loss: 300)]))
        // A loss of 299 is not a mistake.
        let close = GameAnalysis(
            game: 5, depth: 3, positions: positions, moves: Self.moves,
            findings: [try Self.finding("f1", 0), try Self.finding("a2", 299), try Self.finding("f1", -250)])
        #expect(close.evals == [0, -299, -250] && close.mistakes.isEmpty)
    }

    /// A move the search would have played is never a mistake, however much it lost.
    @Test func theSearchsOwnMoveIsNoMistake() throws {
        let positions = try [Position.start, Position.start.play(Self.moves[0])]
        let analysis = GameAnalysis(
            game: 1, depth: 2, positions: positions, moves: [Self.moves[0]],
            findings: [try Self.finding("g2", 0), try Self.finding("a2", 900)])
        #expect(analysis.evals == [0, -900] && analysis.mistakes.isEmpty)
    }

    /// A win found by the search scores `won` (a score beyond it is clamped); a game over scores
    /// its result (`nil`: no search), a drawn one 0.
    @Test func winsAndFinishedGamesScoreTheirResult() throws {
        let over = try Position(fen: "7/7/7/7/7/7/x6 o 0 1")
        let won = GameAnalysis(
            game: 6, depth: 3, positions: [Position.start, over], moves: [Self.moves[0]],
            findings: [try Self.finding("f1", 29_997), nil])
        #expect(won.evals == [GameAnalysis.won, GameAnalysis.won] && won.mistakes.isEmpty)
        let lost = GameAnalysis(
            game: 6, depth: 3, positions: [try Position.start.play(Self.moves[0])], moves: [],
            findings: [try Self.finding("a2", 12_000)])
        #expect(lost.evals == [-GameAnalysis.won])
        let drawn = try Position(fen: "xxxxooo/xxxxooo/xxxxooo/xxx-ooo/xxxoooo/xxxoooo/xxxoooo x 0 1")
        #expect(drawn.isGameOver && drawn.outcome?.winner == nil)
        let draw = GameAnalysis(game: 7, depth: 1, positions: [drawn], moves: [], findings: [nil])
        #expect(draw.evals == [0])
    }
}
