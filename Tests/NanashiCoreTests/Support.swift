@testable import NanashiCore

func position(_ fen: String) throws -> Position { try Position(fen: fen) }

func move(_ text: String) throws -> Move { try Move(notation: text) }

extension Position {
    /// Plays moves written in notation, failing the test on the first bad one.
    func after(_ moves: String) throws -> Position {
        try moves.split(separator: " ").reduce(self) { position, text in
            try position.play(Move(notation: text))
        }
    }
}
