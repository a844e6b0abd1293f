import Testing

@testable import NanashiCore

struct PlayTests {
    @Test(arguments: [
        // A clone adds a piece and captures the enemy pieces around its destination.
        ("x5o/7/7/7/7/7/o5x x 0 1", "f2", "x5o/7/7/7/7/5x1/o5x o 0 1"),
        ("7/7/7/3o3/2oo3/2x4/7 x 0 1", "d2", "7/7/7/3o3/2xx3/2xx3/7 o 0 1"),
        // A jump empties its origin, captures, and adds one to the halfmove clock.
        ("x5o/7/7/7/7/7/o5x x 0 1", "a7c5", "6o/7/2x4/7/7/7/o5x o 1 1"),
        ("7/7/7/3o3/2oo3/2x4/7 x 4 1", "c2e4", "7/7/7/3xx2/2ox3/7/7 o 5 1"),
        // Colors swapped: the same moves for o, and the fullmove number goes up after o.
        ("o5x/7/7/7/7/7/x5o o 0 1", "f2", "o5x/7/7/7/7/5o1/x5o x 0 2"),
        ("7/7/7/3x3/2xx3/2o4/7 o 4 1", "c2e4", "7/7/7/3oo2/2xo3/7/7 x 5 2"),
        // A forced pass adds one to the clock and hands the turn over.
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 7 3", "0000", "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 8 3"),
        ("7/7/7/7/xxxxxxx/xxxxxxx/ooooooo o 7 3", "0000", "7/7/7/7/xxxxxxx/xxxxxxx/ooooooo x 8 4"),
    ])
    func playingAMoveGivesThisPosition(fen: String, move text: String, after: String) throws {
        #expect(try position(fen).play(move(text)).fen == after)
    }

    @Test func countersFollowASequenceOfMoves() throws {
        let start = Position.start
        let afterJumps = try start.after("a7c5 g7e5 c5a7 e5g7")
        #expect(afterJumps.halfmoveClock == 4)
        #expect(afterJumps.fullmoveNumber == 3)
        let afterClone = try afterJumps.after("f2")
        #expect(afterClone.halfmoveClock == 0)
        #expect(afterClone.fullmoveNumber == 3)
        let afterReply = try afterClone.after("a1c3")
        #expect(afterReply.halfmoveClock == 1)
        #expect(afterReply.fullmoveNumber == 4)
    }

    @Test func playingLeavesTheOriginalPositionUnchanged() throws {
        let before = Position.start
        _ = try before.play(move("f2"))
        #expect(before == Position.start)
        #expect(before.fen == "x5o/7/7/7/7/7/o5x x 0 1")
    }

    @Test(arguments: [
        ("x5o/7/7/7/7/7/o5x x 0 1", "g1", IllegalMoveError.Reason.destinationOccupied),
        ("x5o/7/7/7/7/7/o5x x 0 1", "a1", .destinationOccupied),
        ("x5o/7/7/7/7/7/o5x x 0 1", "d4", .noPieceInReach),
        ("x5o/7/7/7/7/7/o5x x 0 1", "g7e5", .notYourPiece),
        ("x5o/7/7/7/7/7/o5x x 0 1", "d4d6", .noPieceOnOrigin),
        ("x5o/7/7/7/7/7/o5x x 0 1", "a7d4", .wrongDistance),
        ("x5o/7/7/7/7/7/o5x x 0 1", "a7a7", .wrongDistance),
        ("x5o/7/7/7/7/7/o5x x 0 1", "a7c7", nil),
        ("x5o/1-5/7/7/7/7/o5x x 0 1", "b6", .destinationBlocked),
        ("x5o/7/-6/7/7/7/o5x x 0 1", "a7a5", .destinationBlocked),
        ("x5o/7/7/7/7/7/o5x x 0 1", "0000", .passNotAllowed),
        ("x5o/7/7/7/7/7/o5x o 0 1", "0000", .passNotAllowed),
        ("x5o/7/7/7/7/7/o5x x 100 1", "f2", .gameOver),
        ("x5o/7/7/7/7/7/o5x x 100 1", "0000", .gameOver),
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", "0000", nil),
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", "a1a3", .destinationOccupied),
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx o 0 1", "0000", .passNotAllowed),
    ])
    func legalityWithReason(fen: String, move text: String, reason: IllegalMoveError.Reason?) throws {
        let position = try position(fen)
        let move = try move(text)
        if let reason {
            #expect(throws: IllegalMoveError(move: move, position: position, reason: reason)) {
                try position.play(move)
            }
            #expect(!position.isLegal(move))
            #expect(!position.legalMoves().contains(move))
        } else {
            #expect(position.isLegal(move))
            #expect(position.legalMoves().contains(move))
        }
    }

    @Test func aSideWithNoMoveMustPass() throws {
        for fen in ["7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", "7/7/7/7/xxxxxxx/xxxxxxx/ooooooo o 0 1"] {
            let position = try position(fen)
            #expect(position.legalMoves() == [.pass])
            #expect(position.legalMoveCount == 1)
            #expect(!position.hasMove)
            #expect(position.outcome == nil)
        }
    }

    @Test func everyGeneratedMoveIsLegalAndCountsAgree() throws {
        var position = try position("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1")
        for _ in 0..<40 {
            let moves = position.legalMoves()
            #expect(moves.count == position.legalMoveCount)
            #expect(moves.allSatisfy(position.isLegal))
            guard let last = moves.last else { break }
            position = try position.play(last)
        }
    }

    @Test func capturesByAMoveAreTheEnemyPiecesAroundItsDestination() throws {
        let position = try position("7/7/7/3o3/2oo3/2x4/7 x 0 1")
        #expect(position.captures(by: try move("d2")) == Bitboard([Square("c3")!, Square("d3")!]))
        #expect(position.captures(by: try move("c2e4")) == Bitboard([Square("d3")!, Square("d4")!]))
        #expect(position.captures(by: .pass).isEmpty)
    }
}
