import Foundation
import NanashiTestSupport
import Testing

@testable import NanashiCore

struct OutcomeTests {
    @Test(arguments: [
        // A side without pieces loses, whatever else holds.
        ("x6/7/7/7/7/7/7 o 0 1", Outcome(winner: .x, reason: .noPieces)),
        ("o6/7/7/7/7/7/7 x 0 1", Outcome(winner: .o, reason: .noPieces)),
        ("7/7/7/7/7/7/7 x 0 1", Outcome(winner: nil, reason: .noPieces)),
        ("x6/7/7/7/7/7/7 o 100 1", Outcome(winner: .x, reason: .noPieces)),
        // A full board: most pieces wins, at once.
        (
            "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo x 0 1",
            Outcome(winner: .x, reason: .lockedBoard)
        ),
        (
            "ooooooo/ooooooo/ooooooo/ooooxxx/xxxxxxx/xxxxxxx/xxxxxxx x 0 1",
            Outcome(winner: .o, reason: .lockedBoard)
        ),
        (
            "xxxxxxx/xxxxxxx/xxxxxxx/xxxoooo/ooooooo/ooooooo/oooooo- x 0 1",
            Outcome(winner: nil, reason: .lockedBoard)
        ),
        // Holes no piece can reach end the game too: no passes needed.
        ("3----/3-2-/3-2-/3----/7/7/xxxoooo x 0 1", nil),
        ("2----1/2-2-1/2----1/7/7/7/xxxoooo x 0 1", nil),
        ("7/7/7/7/-------/-------/xxxoooo x 0 1", Outcome(winner: .o, reason: .lockedBoard)),
        (
            "xx----1/xx-----/-------/-------/-------/------o/-----oo o 0 1",
            Outcome(winner: .x, reason: .lockedBoard)
        ),
        (
            "-------/-------/-------/-------/-----2/xxo----/xoo---- x 0 1",
            Outcome(winner: nil, reason: .lockedBoard)
        ),
        // A decided locked board outranks the fifty-move rule.
        (
            "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo o 100 80",
            Outcome(winner: .x, reason: .lockedBoard)
        ),
        // The halfmove clock at 100 or more draws.
        ("x5o/7/7/7/7/7/o5x x 100 1", Outcome(winner: nil, reason: .fiftyMoveRule)),
        ("x5o/7/7/7/7/7/o5x o 250 1", Outcome(winner: nil, reason: .fiftyMoveRule)),
        ("x5o/7/7/7/7/7/o5x x 99 1", nil),
        ("x5o/7/7/7/7/7/o5x x 0 1", nil),
        // One side stuck is not the end: it passes while the other plays.
        ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", nil),
    ])
    func outcomeOfPosition(fen: String, expected: Outcome?) throws {
        for (text, outcome) in [(fen, expected), (swappingColors(fen), expected.map(swapped))] {
            let position = try position(text)
            #expect(position.outcome == outcome, "\(text)")
            #expect(position.isGameOver == (outcome != nil), "\(text)")
            if outcome != nil { #expect(position.legalMoves().isEmpty) }
        }
    }

    @Test func theLastCloneFillingTheBoardEndsTheGame() throws {
        let position = try position("xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/oooooo1 o 12 40")
        let full = try position.play(move("g1"))
        #expect(full.outcome == Outcome(winner: .x, reason: .lockedBoard))
        #expect(full.fen == "xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo x 0 41")
    }

    @Test func capturingTheLastPieceWins() throws {
        let position = try position("7/7/7/7/7/1o5/x6 x 0 1")
        #expect(try position.play(move("b1")).outcome == Outcome(winner: .x, reason: .noPieces))
    }

    @Test func resultsAndDescriptions() {
        #expect(Outcome(winner: .x, reason: .noPieces).result == "1-0")
        #expect(Outcome(winner: .o, reason: .lockedBoard).result == "0-1")
        #expect(Outcome(winner: nil, reason: .fiftyMoveRule).result == "1/2-1/2")
        #expect(Outcome(winner: .o, reason: .lockedBoard).description == "o locked")
        #expect(Outcome(winner: nil, reason: .fiftyMoveRule).description == "draw fifty")
    }

    @Test func everyEndHasItsWireNameAndResigningGivesTheGameToTheOpponent() {
        #expect(
            Outcome.Reason.allCases.map(\.rawValue) == [
                "pieces", "locked", "fifty", "resign", "timeout", "abandon", "aborted", "illegal",
                "adjudicated", "agreement",
            ])
        #expect(Outcome.resignation(by: .x) == Outcome(winner: .o, reason: .resignation))
        #expect(Outcome.resignation(by: .o).result == "1-0")
        #expect(Outcome(winner: .x, reason: .timeout).description == "x timeout")
    }

    @Test(arguments: [
        (Outcome(winner: .x, reason: .noPieces), #"{"reason":"pieces","winner":"x"}"#),
        (Outcome(winner: .o, reason: .timeout), #"{"reason":"timeout","winner":"o"}"#),
        (Outcome(winner: nil, reason: .fiftyMoveRule), #"{"reason":"fifty","winner":null}"#),
    ])
    func onTheWireAnOutcomeIsItsWinnerAndReason(outcome: Outcome, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(outcome), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(Outcome.self, from: Data(json.utf8)) == outcome)
    }

    @Test func aDrawMayLeaveTheWinnerOutAndAnUnknownReasonIsRefused() throws {
        #expect(
            try JSONDecoder().decode(Outcome.self, from: Data(#"{"reason":"locked"}"#.utf8))
                == Outcome(winner: nil, reason: .lockedBoard))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Outcome.self, from: Data(#"{"reason":"bored","winner":"x"}"#.utf8))
        }
    }

    @Test func everyReasonHasOnePGNTerminationAndOneVerdict() {
        let texts = Outcome.Reason.allCases.map { reason in
            let outcome = Outcome(
                winner: [.fiftyMoveRule, .agreement].contains(reason) ? nil : .x, reason: reason)
            return "\(outcome.termination) | \(outcome.verdict)"
        }
        #expect(
            texts == [
                "normal | x wins (o has no pieces left)",
                "normal | x wins (no one can move: the board is locked)",
                "normal | draw (fifty-move rule: 100 plies without a clone)",
                "normal | x wins (o resigned)",
                "time forfeit | x wins (o ran out of time)",
                "abandoned | x wins (o left the game)",
                "abandoned | x wins (aborted: a side made no first move in time; unrated)",
                "rules infraction | x wins (o played an illegal move)",
                "adjudication | x wins (adjudicated: too many moves)",
                "normal | draw (by agreement)",
            ])
    }

    private func swapped(_ outcome: Outcome) -> Outcome {
        Outcome(winner: outcome.winner?.opponent, reason: outcome.reason)
    }
}
