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
        // h starts nothing while the line is empty (it moves the cursor), but H types.
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
