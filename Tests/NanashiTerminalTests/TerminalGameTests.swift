import NanashiCore
import Testing

@testable import NanashiTerminal

// The offline game loop with a scripted console, files in memory and a scripted opponent: no
// process, no terminal.

final class ScriptedConsole: TerminalConsole {
    var lines: [String]
    var transcript = ""
    let color = false

    init(_ lines: [String]) { self.lines = lines }

    func write(_ text: String) { transcript += text }
    func say(_ line: String) { write(line + "\n") }
    func status(_ text: String) {}
    func ask(_ prompt: String) -> String? {
        write(prompt)
        guard !lines.isEmpty else { return nil }
        let line = lines.removeFirst()
        write(line + "\n")
        return line
    }
}

final class MemoryFiles: GameFiles {
    var files: [String: String] = [:]
    struct Missing: Error, CustomStringConvertible { let description = "no such file" }

    func read(_ path: String) throws -> String {
        guard let text = files[path] else { throw Missing() }
        return text
    }
    func write(_ text: String, to path: String) throws { files[path] = text }
    let today = "2026.11.23"
}

/// Always answers the same move, legal or not.
final class Stubborn: MoveSource {
    let answer: Move
    init(_ answer: Move) { self.answer = answer }
    let label = "stubborn"
    func move(in game: Game, console: any TerminalConsole) -> Move { answer }
}

private func game(
    _ lines: [String], files: MemoryFiles = MemoryFiles(), opponents: [Side: any MoveSource] = [:],
    labels: [Side: String] = [:]
) -> (TerminalGame, ScriptedConsole) {
    let console = ScriptedConsole(lines)
    let game = TerminalGame(
        game: Game(), console: console, files: files, opponents: opponents, labels: labels, flipped: false,
        tags: ["Event": "test"], hint: { _ in nil })
    return (game, console)
}

@Test func movesUndoAndQuitAtTheKeyboard() {
    let (terminal, console) = game(["b6", "a7a5", "undo", "quit"])
    #expect(terminal.run() == .quit)
    #expect(terminal.game.moves == [])
    #expect(console.transcript.contains("x> b6\n"))
    #expect(console.transcript.contains("o> a7a5\nillegal move a7a5: the piece on the origin is not yours\n"))
    #expect(console.transcript.contains("o> undo\ntook back 1 move\n"))
    #expect(console.transcript.hasSuffix("x> quit\n"))
}

@Test func savedGamesAreLoadedBackWithTheirMoves() throws {
    let files = MemoryFiles()
    let (first, firstConsole) = game(["b6", "save g.pgn"], files: files)
    #expect(first.run() == .quit)
    #expect(firstConsole.transcript.contains("o> save g.pgn\nsaved 1 moves to g.pgn\n"))
    let pgn = try #require(files.files["g.pgn"])
    #expect(pgn.contains("[Event \"test\"]\n[Site \"?\"]\n[Date \"2026.11.23\"]\n"))
    #expect(pgn.hasSuffix("\n1. b6 *\n"))

    let (second, secondConsole) = game(["load g.pgn", "load nowhere.pgn"], files: files)
    #expect(second.run() == .quit)
    #expect(second.game.moves == [.clone(to: Square("b6")!)])
    #expect(secondConsole.transcript.contains("x> load g.pgn\nloaded 1 moves from g.pgn\n"))
    #expect(secondConsole.transcript.contains("o> load nowhere.pgn\ncannot read nowhere.pgn: no such file\n"))
}

@Test func anOpponentWithAnIllegalMoveResigns() {
    let (terminal, console) = game(["b6"], opponents: [.o: Stubborn(.pass)])
    #expect(terminal.run() == .finished(.resignation(by: .o)))
    #expect(console.transcript.hasSuffix("o sent an illegal move 0000; it resigns\n"))
}

@Test func anotherGameIsOfferedUntilTheAnswerIsClear() {
    let console = ScriptedConsole(["maybe", " Y "])
    #expect(TerminalGame.offerAnotherGame(after: .resignation(by: .x), final: .start, console: console))
    #expect(
        console.transcript
            == "game over: o wins (x resigned)\nfinal count: x 2, o 2\nplay again? (y/n)> maybe\n"
            + "please answer y or n\nplay again? (y/n)>  Y \n")
    #expect(
        !TerminalGame.offerAnotherGame(
            after: .resignation(by: .x), final: .start, console: ScriptedConsole([])))
}

/// Plays the moves it was given, one a turn, as the AI would.
private final class Scripted: MoveSource {
    var moves: [Move]
    init(_ moves: [Move]) { self.moves = moves }
    let label = "scripted"
    func move(in game: Game, console: any TerminalConsole) -> Move { moves.removeFirst() }
}

@Test func theAIsMovesAndThePersonsShareOneScreenAndOneLoop() throws {
    let b6 = Move.clone(to: Square("b6")!)
    let b2 = Move.clone(to: Square("b2")!)
    let labels: [Side: String] = [.x: "you", .o: "scripted"]
    let (terminal, console) = game(["b6", "quit"], opponents: [.o: Scripted([b2])], labels: labels)
    #expect(terminal.run() == .quit)
    let afterX = try Game(start: .start, moves: [b6])
    let afterO = try Game(start: .start, moves: [b6, b2])
    let renderer = BoardRenderer()
    #expect(
        console.transcript
            == renderer.render(.start, labels: labels) + "x> b6\n"
            + renderer.render(afterX.current, lastMove: afterX.lastMove, labels: labels)
            + renderer.render(afterO.current, lastMove: afterO.lastMove, labels: labels) + "x> quit\n")
}

@Test func aForcedPassIsPlayedForThePersonAndTheGameGoesOn() throws {
    let start = try Position(fen: "x--4/---4/---4/7/7/7/6o x 0 1")
    let console = ScriptedConsole(["resign"])
    let terminal = TerminalGame(
        game: Game(start: start), console: console, files: MemoryFiles(), opponents: [:], labels: [:],
        flipped: false, tags: [:], hint: { _ in nil })
    #expect(terminal.run() == .finished(.resignation(by: .o)))
    let passed = try Game(start: start, moves: [.pass])
    #expect(
        console.transcript
            == BoardRenderer().render(start) + "x has no move and passes\n"
            + BoardRenderer().render(passed.current, lastMove: passed.lastMove) + "o> resign\n")
}

@Test func gamesArePlayedAgainWhileThePersonWantsAnother() {
    // Each game is lost at once (the opponent's move is illegal, so it resigns); the first is
    // followed by another, the second is not.
    let console = ScriptedConsole(["b6", "y", "b6", "n"])
    var made = 0
    TerminalGame.playAgain(on: console) {
        made += 1
        return TerminalGame(
            game: Game(), console: console, files: MemoryFiles(), opponents: [.o: Stubborn(.pass)],
            labels: [:],
            flipped: false, tags: [:], hint: { _ in nil })
    }
    #expect(made == 2)
    #expect(console.transcript.hasSuffix("play again? (y/n)> n\n"))
    // Quitting a game ends at once, without the question.
    let quitting = ScriptedConsole(["quit"])
    made = 0
    TerminalGame.playAgain(on: quitting) {
        made += 1
        return TerminalGame(
            game: Game(), console: quitting, files: MemoryFiles(), opponents: [:], labels: [:],
            flipped: false,
            tags: [:], hint: { _ in nil })
    }
    #expect(made == 1 && !quitting.transcript.contains("play again"))
}
