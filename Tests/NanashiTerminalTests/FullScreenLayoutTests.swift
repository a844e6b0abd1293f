import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct FullScreenLayoutTests {
    static let reverse = "\u{1B}[7m"
    static let plain = "\u{1B}[0m"

    /// The start of a hot-seat game at 80 x 24 in ASCII, without color: the board in its frame
    /// (the cursor's square in reverse video), the moves beside it, the three lines at the bottom.
    @Test func startOfAGameAt80x24() throws {
        let layout = FullScreenLayout(width: 80, height: 24, glyphs: .ascii, color: false)
        let state = ScreenState(
            table: TableView(game: Game()), cursor: Square("g1")!, message: "hot seat: x and o take turns",
            prompt: "x> ")
        let frame = layout.frame(state)
        let expected: [String] =
            [
                "nanashi",
                "     a  b  c  d  e  f  g       moves",
                "   +---------------------+     (none yet)",
                " 7 | x  .  .  .  .  .  o | 7",
                " 6 | .  .  .  .  .  .  . | 6",
                " 5 | .  .  .  .  .  .  . | 5",
                " 4 | .  .  .  .  .  .  . | 4",
                " 3 | .  .  .  .  .  .  . | 3",
                " 2 | .  .  .  .  .  .  . | 2",
                " 1 | o  .  .  .  .  . \(Self.reverse) x \(Self.plain)| 1",
                "   +---------------------+",
                "     a  b  c  d  e  f  g",
                " x 2 pieces   o 2 pieces",
                " move 1, x to play",
            ] + Array(repeating: "", count: 7) + [
                "arrows/hjkl move, Enter/Space select and play, Esc cancels, or type (? help)",
                "hot seat: x and o take turns",
                "x> ",
            ]
        #expect(frame.lines == expected)
        #expect(frame.cursorRow == 23)
        #expect(frame.cursorColumn == 3)
    }

    /// After a jump with the piece that made it selected again, in box-drawing lines: the marks
    /// and targets as the line renderer draws them, today's words under the board, the clocks.
    @Test func aSelectionWithTargetsTheLastMoveAndClocks() throws {
        var game = Game()
        try game.play(Move(notation: "g1e3"))
        try game.play(Move(notation: "a1a3"))
        let layout = FullScreenLayout(width: 60, height: 20, glyphs: .unicode, color: false)
        let state = ScreenState(
            table: TableView(
                game: game, selected: Square("e3")!, labels: [.x: "you", .o: "ann 1500"],
                clocks: "*x 4:58.2   o 5:00.0", title: "nanashi online: game 7"),
            cursor: Square("a7")!, prompt: "x [e3]> ", input: "d")
        let frame = layout.frame(state)
        let expectedLines = [
            "nanashi online: game 7",
            "     a  b  c  d  e  f  g       moves",
            "   ┌─────────────────────┐     1. g1e3 a1a3",
            " 7 │\(Self.reverse) x \(Self.plain) .  .  .  .  .  o │ 7",
            " 6 │ .  .  .  .  .  .  . │ 6",
            " 5 │ .  .  *  *  *  *  * │ 5",
            " 4 │ .  .  *  +  +  +  * │ 4",
            " 3 │[o] .  *  + <x> +  * │ 3",
            " 2 │ .  .  *  +  +  +  * │ 2",
            " 1 │[.] .  *  *  *  *  * │ 1",
            "   └─────────────────────┘",
            "     a  b  c  d  e  f  g",
            " x 2 pieces (you)   o 2 pieces (ann 1500)",
            " move 2, x to play",
            " last move: o a1a3",
            " e3 selected: clone (+) d2 e2 f2 d3 f3 d4 e4 f4, jump (*) c1 d1 e1 f1 g1 c2 g2 c3 g3 c4 g4 c5 d5",
            " *x 4:58.2   o 5:00.0",
            ScreenState.boardKeysHelp.short,
            "",
            "x [e3]> d",
        ].map { Frame.clip($0, to: 60) }
        #expect(frame.lines == expectedLines)
        #expect(frame.cursorColumn == 9)
    }

    /// The keys' line is whole where it fits and short where it does not: a narrow window still
    /// says how to get help, rather than a sentence cut at its edge.
    @Test func aNarrowWindowShowsTheShortKeysLine() {
        let state = ScreenState(table: TableView(game: Game()), prompt: "x> ")
        let wide = FullScreenLayout(width: 80, height: 24, glyphs: .ascii, color: false).frame(state)
        #expect(
            wide.lines[21] == "arrows/hjkl move, Enter/Space select and play, Esc cancels, or type (? help)")
        let narrow = FullScreenLayout(width: 60, height: 24, glyphs: .ascii, color: false).frame(state)
        #expect(narrow.lines[21] == "arrows/hjkl Enter Esc, ? help")
        #expect(KeyHelp("q leaves").line(width: 5) == "q leaves")
    }

    /// A narrow window has no room beside the board: the notes go under it, their end shown when
    /// they do not all fit, and long lines are cut at the window's edge.
    @Test func narrowWindowPutsNotesUnderTheBoard() throws {
        let layout = FullScreenLayout(width: 30, height: 24, glyphs: .ascii, color: false)
        #expect(!layout.hasPanel)
        let state = ScreenState(
            table: TableView(game: Game()), cursor: Square("a1")!,
            notes: ["game over: x wins", "final count: x 3, o 0"],
            prompt: "play again? (y/n)> ")
        let frame = layout.frame(state)
        #expect(frame.lines[12] == " x 2 pieces   o 2 pieces")
        #expect(frame.lines[14] == "")
        #expect(frame.lines[15] == "game over: x wins")
        #expect(frame.lines[16] == "final count: x 3, o 0")
        #expect(frame.lines[21] == "arrows/hjkl Enter Esc, ? help")
        #expect(frame.lines[23] == "play again? (y/n)> ")
        #expect(frame.lines.allSatisfy { Frame.width(of: $0) <= 30 })
    }

    /// Many moves: the last that fit, under `...`; notes replace them while they are shown.
    @Test func thePanelShowsTheLastMovesOrTheNotes() throws {
        var game = Game()
        for notation in ["g2", "a2", "g3", "a3", "g4", "a4", "g5", "a5", "g6", "a6", "f1", "b1"] {
            try game.play(Move(notation: notation))
        }
        let layout = FullScreenLayout(width: 60, height: 10, glyphs: .ascii, color: false)
        let frame = layout.frame(ScreenState(table: TableView(game: game), boardKeys: false))
        #expect(
            frame.lines[1...6].map { String($0.dropFirst(31)) } == [
                "moves", "...", "3. g4 a4", "4. g5 a5", "5. g6 a6", "6. f1 b1",
            ])
        let helped = layout.frame(
            ScreenState(
                table: TableView(game: game), notes: ["moves          list the legal moves and more words"],
                boardKeys: false))
        #expect(helped.lines[1].dropFirst(31) == "moves          list the legal")
        #expect(helped.lines[2].dropFirst(31) == "  moves and more words")
    }

    @Test func colorsOnlyWhenAsked() throws {
        let state = ScreenState(table: TableView(game: Game()), cursor: Square("d4")!)
        let plain = FullScreenLayout(width: 80, height: 24, glyphs: .ascii, color: false).frame(state)
        let colored = FullScreenLayout(width: 80, height: 24, glyphs: .ascii, color: true).frame(state)
        #expect(plain.lines.allSatisfy { !$0.contains("\u{1B}[1;31m") && !$0.contains("\u{1B}[2m") })
        #expect(colored.lines[3] == BoardLine.colored7)
        #expect(colored.lines.map { Frame.clip($0, to: 0) } != plain.lines)
    }

    @Test func clicksFindTheirSquareAsTheBoardIsSeen() {
        let layout = FullScreenLayout(width: 80, height: 24, glyphs: .ascii, color: false)
        // The three cells of a7 and of g1, counted from 0.
        for column in 4...6 { #expect(layout.square(column: column, row: 3, flipped: false) == Square("a7")) }
        for column in 22...24 {
            #expect(layout.square(column: column, row: 9, flipped: false) == Square("g1"))
        }
        #expect(layout.square(column: 4, row: 3, flipped: true) == Square("g1"))
        #expect(layout.square(column: 3, row: 3, flipped: false) == nil)
        #expect(layout.square(column: 25, row: 3, flipped: false) == nil)
        #expect(layout.square(column: 10, row: 2, flipped: false) == nil)
        #expect(layout.square(column: 10, row: 10, flipped: false) == nil)
    }

    @Test func boxLinesOnlyWithAUTF8Locale() {
        #expect(BoxGlyphs.forLocale(["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(BoxGlyphs.forLocale(["LC_ALL": "C.utf8", "LANG": "C"]) == .unicode)
        #expect(BoxGlyphs.forLocale(["LC_ALL": "C", "LANG": "en_US.UTF-8"]) == .ascii)
        #expect(BoxGlyphs.forLocale(["LC_CTYPE": "de_DE.ISO-8859-1"]) == .ascii)
        #expect(BoxGlyphs.forLocale(["LC_ALL": "", "LANG": "fr_FR.UTF-8"]) == .unicode)
        #expect(BoxGlyphs.forLocale([:]) == .ascii)
    }

    @Test func moveListsNumberFromTheStartPosition() throws {
        let game = try Game(
            start: Position(fen: "x5o/7/7/7/7/7/o5x o 0 12"),
            moves: [Move(notation: "a1a3"), Move(notation: "g2"), Move(notation: "b2")])
        #expect(TableView(game: game).moveLines == ["12. ... a1a3", "13. g2 b2"])
    }
}

/// Rank 7 of the start position, colored: dim coordinates, red x, cyan o.
private enum BoardLine {
    static let colored7 =
        "\u{1B}[2m 7 \u{1B}[0m| \u{1B}[1;31mx\u{1B}[0m  \u{1B}[2m.\u{1B}[0m  \u{1B}[2m.\u{1B}[0m  "
        + "\u{1B}[2m.\u{1B}[0m  \u{1B}[2m.\u{1B}[0m  \u{1B}[2m.\u{1B}[0m  \u{1B}[1;36mo\u{1B}[0m |\u{1B}[2m 7\u{1B}[0m"
}

@Suite struct FullScreenMessageTests {
    /// A message wider than the window is cut on its line and shown whole with the notes.
    @Test func aLongMessageIsShownWholeBesideTheBoard() {
        let layout = FullScreenLayout(width: 60, height: 24, glyphs: .ascii, color: false)
        let message = "found an opponent after 0:03: you play o against bob (1500) at 3+2; type help"
        let frame = layout.frame(
            ScreenState(table: TableView(game: Game()), message: message, boardKeys: false))
        #expect(frame.lines[22] == String(message.prefix(60)))
        #expect(
            frame.lines[1...6].map { String($0.dropFirst(31)) } == [
                "found an opponent after 0:03:", "  you play o against bob", "  (1500) at 3+2; type help", "",
                "moves", "(none yet)",
            ])
        #expect(frame.lines[0] == "nanashi")
        let titled = layout.frame(ScreenState(title: "nanashi hotseat: x and o at one keyboard"))
        #expect(titled.lines[0] == "nanashi hotseat: x and o at one keyboard")
    }
}

extension FullScreenLayoutTests {
    /// Notes beside the board pass by the status lines that reach into their column (long
    /// names, a selection's targets): no note is written onto the end of one, none is lost.
    @Test func notesBesideTheBoardPassByLongStatusLines() throws {
        let layout = FullScreenLayout(width: 64, height: 20, glyphs: .ascii, color: false)
        let notes = (1...12).map { "note \($0)" }
        let state = ScreenState(
            table: TableView(
                game: Game(), selected: Square("g1")!, labels: [.x: "you", .o: "AI level 3, about 780"]),
            cursor: Square("g1")!, notes: notes, prompt: "x [g1]> ")
        let frame = layout.frame(state)
        let expected = [
            "nanashi",
            "     a  b  c  d  e  f  g       note 1",
            "   +---------------------+     note 2",
            " 7 | x  .  .  .  .  .  o | 7   note 3",
            " 6 | .  .  .  .  .  .  . | 6   note 4",
            " 5 | .  .  .  .  .  .  . | 5   note 5",
            " 4 | .  .  .  .  .  .  . | 4   note 6",
            " 3 | .  .  .  .  *  *  * | 3   note 7",
            " 2 | .  .  .  .  *  +  + | 2   note 8",
            " 1 | o  .  .  .  *  + \(Self.reverse)<x>\(Self.plain)| 1   note 9",
            "   +---------------------+     note 10",
            "     a  b  c  d  e  f  g       note 11",
            " x 2 pieces (you)   o 2 pieces (AI level 3, about 780)",
            " move 1, x to play             note 12",
            " g1 selected: clone (+) f1 f2 g2, jump (*) e1 e2 e3 f3 g3",
            "",
            "",
            ScreenState.boardKeysHelp.short,
            "",
            "x [g1]> ",
        ].map { Frame.clip($0, to: 64) }
        #expect(frame.lines == expected)
    }
}
