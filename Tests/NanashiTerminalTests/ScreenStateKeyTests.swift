import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct ScreenStateKeyTests {
    let layout = FullScreenLayout(width: 80, height: 24, glyphs: .ascii, color: false)

    private func state(selected: String? = nil, flipped: Bool = false) -> ScreenState {
        ScreenState(
            table: TableView(game: Game(), selected: selected.map { Square($0)! }, flipped: flipped),
            cursor: Square("g1")!, prompt: "x> ")
    }

    @Test func arrowsAndHJKLMoveTheCursorAndStopAtTheEdge() {
        var screen = state()
        for key in [Key.up, .left, .character("k"), .character("h")] {
            #expect(screen.take(key, layout: layout) == .none)
        }
        #expect(screen.cursor == Square("e3"))
        _ = screen.take(.character("j"), layout: layout)
        _ = screen.take(.character("l"), layout: layout)
        #expect(screen.cursor == Square("f2"))
        for _ in 0..<9 { _ = screen.take(.right, layout: layout) }
        #expect(screen.cursor == Square("g2"))
        // Seen from o's side, up goes toward rank 1.
        var flipped = state(flipped: true)
        _ = flipped.take(.up, layout: layout)
        _ = flipped.take(.left, layout: layout)
        #expect(flipped.cursor == Square("g1"))
        _ = flipped.take(.down, layout: layout)
        _ = flipped.take(.right, layout: layout)
        #expect(flipped.cursor == Square("f2"))
        #expect(screen.input == "")
    }

    @Test func enterSpaceAndClicksChooseASquare() {
        var screen = state()
        #expect(screen.take(.enter, layout: layout) == .line("g1"))
        #expect(screen.take(.character(" "), layout: layout) == .line("g1"))
        // Row 5, column 12 from 1: a7 is row 4 from 1 (3 from 0); b5 is row 6.
        #expect(screen.take(.click(button: 0, column: 9, row: 6), layout: layout) == .line("b5"))
        #expect(screen.cursor == Square("b5"))
        #expect(screen.take(.click(button: 2, column: 9, row: 6), layout: layout) == .none)
        #expect(screen.take(.click(button: 0, column: 40, row: 6), layout: layout) == .none)
    }

    @Test func escapeDropsTheSelectionOrWhatIsTyped() {
        var screen = state(selected: "g1")
        #expect(screen.take(.escape, layout: layout) == .line("g1"))
        var plain = state()
        #expect(plain.take(.escape, layout: layout) == .none)
        for character in "und" { _ = plain.take(.character(character), layout: layout) }
        #expect(plain.input == "und")
        #expect(plain.take(.escape, layout: layout) == .none)
        #expect(plain.input == "")
    }

    @Test func typedLinesStillWork() {
        var screen = state()
        // Capitals type as they are.
        for character in "Hint" { _ = screen.take(.character(character), layout: layout) }
        #expect(screen.input == "Hint")
        // Once typing, h j k l and space are letters of the line.
        for character in " jk" { _ = screen.take(.character(character), layout: layout) }
        _ = screen.take(.backspace, layout: layout)
        #expect(screen.take(.left, layout: layout) == .none)
        #expect(screen.cursor == Square("f1"))
        #expect(screen.take(.enter, layout: layout) == .line("Hint j"))
        #expect(screen.input == "")
        for character in "save a b.pgn" { _ = screen.take(.character(character), layout: layout) }
        _ = screen.take(.eraseLine, layout: layout)
        #expect(screen.input == "")
        #expect(screen.take(.endOfInput, layout: layout) == .ended)
        #expect(screen.take(.interrupt, layout: layout) == .ended)
        #expect(screen.take(.redraw, layout: layout) == .redraw)
    }

    @Test func commandsThatBeginWithACursorLetterTypeAsTheyAre() {
        var screen = state()
        // h moves the cursor left; the i after it makes the two the start of hint.
        _ = screen.take(.character("h"), layout: layout)
        #expect(screen.cursor == Square("f1"))
        _ = screen.take(.character("i"), layout: layout)
        #expect(screen.input == "hi")
        #expect(screen.cursor == Square("g1"))
        for character in "nt" { _ = screen.take(.character(character), layout: layout) }
        #expect(screen.take(.enter, layout: layout) == .line("hint"))
        for character in "help" { _ = screen.take(.character(character), layout: layout) }
        #expect(screen.take(.enter, layout: layout) == .line("help"))
        #expect(screen.cursor == Square("g1"))
        // A file name after load: the line stays a command whatever follows the word.
        var loading = state()
        for character in "load jk.pgn" { _ = loading.take(.character(character), layout: layout) }
        #expect(loading.take(.enter, layout: layout) == .line("load jk.pgn"))
        #expect(loading.cursor == Square("g1"))
        // Letters and a backspace: what is left still reads as the start of help.
        var erased = state()
        for character in "hel" { _ = erased.take(.character(character), layout: layout) }
        _ = erased.take(.backspace, layout: layout)
        _ = erased.take(.backspace, layout: layout)
        #expect(erased.input == "h")
        #expect(erased.cursor == Square("g1"))
    }

    @Test func cursorLettersBeforeAMoveStillMoveTheCursor() {
        // k h then e4: "khe" could begin no command; the letters moved the cursor.
        var screen = state()
        for character in "khe4" { _ = screen.take(.character(character), layout: layout) }
        #expect(screen.input == "e4")
        #expect(screen.cursor == Square("f2"))
        // h then e4: "he" could begin help until the 4; then the h moved the cursor after all.
        var left = state()
        _ = left.take(.character("h"), layout: layout)
        _ = left.take(.character("e"), layout: layout)
        #expect(left.input == "he")
        #expect(left.cursor == Square("g1"))
        _ = left.take(.character("4"), layout: layout)
        #expect(left.input == "e4")
        #expect(left.cursor == Square("f1"))
        #expect(left.take(.enter, layout: layout) == .line("e4"))
        // Cursor letters, then an arrow, then a letter: the run ended with the arrow.
        var moved = state()
        _ = moved.take(.character("h"), layout: layout)
        _ = moved.take(.up, layout: layout)
        _ = moved.take(.character("i"), layout: layout)
        #expect(moved.input == "i")
        #expect(moved.cursor == Square("f2"))
        // Space after cursor letters chooses the square they reached.
        var chosen = state()
        _ = chosen.take(.character("h"), layout: layout)
        #expect(chosen.take(.character(" "), layout: layout) == .line("f1"))
        _ = chosen.take(.character("i"), layout: layout)
        #expect(chosen.input == "i")
    }

    @Test func withoutBoardKeysTheKeysStandForLines() {
        var screen = ScreenState(
            table: TableView(game: Game()), cursor: Square("d4")!, boardKeys: false,
            keyLines: [.right: "n", .left: "b"])
        #expect(screen.take(.right, layout: layout) == .line("n"))
        #expect(screen.take(.left, layout: layout) == .line("b"))
        #expect(screen.take(.up, layout: layout) == .none)
        #expect(screen.cursor == Square("d4"))
        #expect(screen.take(.enter, layout: layout) == .line(""))
        #expect(screen.take(.click(button: 0, column: 9, row: 6), layout: layout) == .none)
        _ = screen.take(.character("1"), layout: layout)
        #expect(screen.take(.right, layout: layout) == .none)
        #expect(screen.take(.enter, layout: layout) == .line("1"))
    }
}
