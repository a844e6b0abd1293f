import NanashiAI
import NanashiCore
import Testing

@testable import NanashiMatch

struct OpeningsTests {
    /// The board of `position` reflected between files a and g with the colours swapped.
    func mirroredBoard(_ position: Position) -> String {
        let board = position.fen.split(separator: " ")[0]
        let ranks = board.split(separator: "/").map { rank in
            String(
                rank.reversed().map { character -> Character in
                    character == "x" ? "o" : character == "o" ? "x" : character
                })
        }
        return ranks.joined(separator: "/")
    }

    @Test func theBookIsVariedAndFair() {
        let book = Openings.book
        #expect(book.count == 166)
        #expect(Set(book.map(\.fen)).count == book.count)
        #expect(book.contains { !$0.blockers.isEmpty })
        #expect(
            book.prefix(Openings.blockerLayouts.count).map(\.blockers).count == Openings.blockerLayouts.count)
        for position in book {
            // Both sides stand the same: o's pieces are x's reflected, and x moves next.
            #expect(
                mirroredBoard(position) == String(position.fen.split(separator: " ")[0]), "\(position.fen)")
            #expect(position.sideToMove == .x)
            #expect(position.fullmoveNumber == 2)
            #expect(!position.isGameOver)
        }
    }

    @Test func theFirstOpeningsCycleThroughTheBlockerLayouts() {
        let layouts = Openings.book.prefix(Openings.blockerLayouts.count).map(\.blockers)
        #expect(Set(layouts).count == Openings.blockerLayouts.count)
    }

    @Test func everyOpeningIsPlayedWithBothColours() {
        let match = Match(first: .level(Level(1)!), second: .level(Level(2)!), games: 7)
        let schedule = match.schedule
        #expect(schedule.count == 8)
        for pair in 0..<4 {
            #expect(schedule[2 * pair].opening == Openings.book[pair])
            #expect(schedule[2 * pair + 1].opening == Openings.book[pair])
            #expect(schedule[2 * pair].firstPlaysX && !schedule[2 * pair + 1].firstPlaysX)
        }
        #expect(schedule.map(\.round) == Array(1...8))
    }

    @Test func fewerOpeningsThanPairsAreUsedAgain() throws {
        let openings = try Openings.parse("x5o/7/7/7/7/7/o5x x 0 1\nx5o/7/3-3/7/3-3/7/o5x x 0 1\n")
        let match = Match(first: .level(Level(1)!), second: .level(Level(1)!), games: 6, openings: openings)
        #expect(match.schedule.map(\.opening) == [0, 0, 1, 1, 0, 0].map { openings[$0] })
    }

    @Test func aFileHoldsAFENPerLineWithCommentsAndBlankLines() throws {
        let text = "# two openings\n\nx5o/7/7/7/7/7/o5x x 0 1\n  x5o/7/2-1-2/7/2-1-2/7/o5x o 3 9  \n"
        let positions = try Openings.parse(text)
        #expect(positions.map(\.fen) == ["x5o/7/7/7/7/7/o5x x 0 1", "x5o/7/2-1-2/7/2-1-2/7/o5x o 3 9"])
    }

    @Test(arguments: [
        (
            "x5o/7/7/7/7/7/o5x x 0 1\nx5o/7/7/7/7/7/o5 x 0 1\n",
            "openings line 2: bad FEN 'x5o/7/7/7/7/7/o5 x 0 1'"
        ),
        ("# none\n\n", "no openings: give a FEN per line"),
        ("xxxxxxx/7/7/7/7/7/7 o 0 1", "openings line 1: the game is over"),
    ])
    func badFilesAreRefusedNamingTheLine(text: String, message: String) {
        #expect(throws: MatchError(message)) { try Openings.parse(text) }
    }
}
