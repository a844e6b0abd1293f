import NanashiAI
import NanashiCore
import Testing

@testable import NanashiTerminal

// The games of `nanashi play` and `nanashi hotseat`, with the scripted console, files in memory
// and the stubborn opponent of TerminalGameTests.

@Test func theAIsGameNamesThePersonAndTheOpponent() throws {
    let console = ScriptedConsole(["save g.pgn", "quit"])
    let files = MemoryFiles()
    let terminal = LocalPlay.game(
        from: .start, person: .o, against: Stubborn(.clone(to: Square("b6")!)), console: console,
        files: files,
        hint: { _ in nil })
    #expect(terminal.run() == .quit)
    #expect(console.transcript.contains(" x 3 pieces (stubborn)   o 2 pieces (you)\n"))
    let pgn = try #require(files.files["g.pgn"])
    #expect(pgn.hasPrefix("[Event \"nanashi play\"]\n"))
    #expect(pgn.contains("\n[White \"nanashi stubborn\"]\n[Black \"you\"]\n"))
    #expect(pgn.hasSuffix("\n1. b6 *\n"))
    #expect(!pgn.contains("Elo"))
}

/// The AI's rating is shown after its label and saved as its side's Elo, not in its name.
@Test func theAIsRatingIsShownAndSavedApart() throws {
    let console = ScriptedConsole(["save g.pgn", "quit"])
    let files = MemoryFiles()
    let level = Level(8)!
    let terminal = LocalPlay.game(
        from: .start, person: .x, against: AIOpponent(level: level, random: RandomSource(seed: 1)),
        console: console, files: files, hint: { _ in nil })
    #expect(terminal.run() == .quit)
    #expect(console.transcript.contains("   o 2 pieces (AI level 8, about \(level.elo))\n"))
    let pgn = try #require(files.files["g.pgn"])
    #expect(pgn.contains("\n[White \"you\"]\n[Black \"nanashi AI level 8\"]\n"))
    #expect(pgn.contains("\n[BlackElo \"\(level.elo)\"]\n"))
}

@Test func theHotseatGameIsXAgainstO() throws {
    let console = ScriptedConsole(["b6", "a2", "save h.pgn", "quit"])
    let files = MemoryFiles()
    let terminal = LocalPlay.hotseatGame(from: .start, console: console, files: files, hint: { _ in nil })
    #expect(terminal.run() == .quit)
    let pgn = try #require(files.files["h.pgn"])
    #expect(pgn.hasPrefix("[Event \"nanashi hotseat\"]\n"))
    #expect(pgn.contains("\n[White \"x\"]\n[Black \"o\"]\n"))
    #expect(pgn.hasSuffix("\n1. b6 a2 *\n"))
}

@Test func aChosenSideIsKeptAndARandomOneIsDrawnEachGame() {
    let random = RandomSource(seed: 7)
    #expect((0..<4).map { _ in LocalPlay.SideChoice.x.side(drawingFrom: random) } == [.x, .x, .x, .x])
    #expect((0..<4).map { _ in LocalPlay.SideChoice.o.side(drawingFrom: random) } == [.o, .o, .o, .o])
    let draws = { (seed: UInt64) in
        let random = RandomSource(seed: seed)
        return (0..<16).map { _ in LocalPlay.SideChoice.random.side(drawingFrom: random) }
    }
    #expect(draws(7) == draws(7))
    #expect(Set(draws(7)) == [.x, .o])
}

@Test func theEnginesScoreTellsWinsAndLossesFromMaterial() {
    #expect(AIOpponent.score(Engine.winScore - 3) == .win(plies: 3))
    #expect(AIOpponent.score(-(Engine.winScore - 5)) == .loss(plies: 5))
    #expect(AIOpponent.score(Engine.winThreshold) == .centipieces(Engine.winThreshold))
    #expect(AIOpponent.score(-42) == .centipieces(-42))
}

@Test func replaysEvalSearchesToTheDepthAsked() throws {
    // x to move can take all of o's pieces at once: a1 is empty, o's two pieces are next to it.
    let position = try Position(fen: "7/7/7/7/7/oo5/1x5 x 0 1")
    let result = ReplaySession.search(Engine(hashMegabytes: 1), depth: 1)(position)
    #expect(result.depth == 1)
    #expect(result.best == .clone(to: Square("a1")!))
}
