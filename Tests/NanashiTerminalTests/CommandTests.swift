import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct CommandTests {
    @Test(arguments: [
        ("c3", Command.square(Square("c3")!)),
        ("  C3  ", .square(Square("c3")!)),
        ("a1c3", .move(.jump(from: Square("a1")!, to: Square("c3")!))),
        ("b2b3", .move(.clone(to: Square("b3")!))),
        ("a1a4", .move(.jump(from: Square("a1")!, to: Square("a4")!))),
        ("0000", .move(.pass)),
        ("pass", .move(.pass)),
        ("help", .help),
        ("?", .help),
        ("moves", .moves),
        ("undo", .undo),
        ("hint", .hint),
        ("flip", .flip),
        ("board", .board),
        ("resign", .resign),
        ("Draw", .draw),
        ("decline", .declineDraw),
        ("quit", .quit),
        ("Exit", .quit),
        ("", .nothing),
        ("   ", .nothing),
        ("save game.pgn", .save(path: "game.pgn")),
        ("load  my games/Game 1.pgn ", .load(path: "my games/Game 1.pgn")),
    ])
    func parsesLines(line: String, expected: Command) throws {
        #expect(try Command(parsing: line) == expected)
    }

    @Test(arguments: [
        ("h9", "'h9' is not a square: expected a1 to g7"),
        ("a1z1", "'z1' is not a square: expected a1 to g7"),
        ("a1c", "'a1c' is not a move: expected a square like f2, two squares like a7c5, or 0000"),
        ("castle", "'castle' is not a move or a command (type ? for help)"),
        ("a1c3e5", "'a1c3e5' is not a move or a command (type ? for help)"),
        ("\u{1B}OQ", "'?oq' is not a move or a command (type ? for help)"),
        ("save", "save needs a file name, like: save game.pgn"),
        ("load", "load needs a file name, like: load game.pgn"),
        ("undo 2", "undo takes no argument"),
    ])
    func refusesLinesWithAReason(line: String, message: String) {
        #expect(throws: CommandParseError.self) { try Command(parsing: line) }
        do {
            _ = try Command(parsing: line)
        } catch {
            #expect(error.description == message)
        }
    }
}
