import NanashiAI
import NanashiCore

/// The games played at one keyboard, one after another while the person wants another: against
/// the AI (`nanashi play`), or two people taking turns (`nanashi hotseat`).
public enum LocalPlay {
    /// How moves are typed, for the help of the commands that play at the keyboard.
    public static let howToMove =
        "Type a square with your piece to see its moves, then the destination; or a full move (c3, a1c3)."

    /// Which side the person plays against the AI.
    public enum SideChoice: String, CaseIterable, Sendable {
        case x, o, random

        /// The side for the next game: `random` draws it from `random`, a fresh draw each game.
        public func side(drawingFrom random: RandomSource) -> Side {
            switch self {
            case .x: .x
            case .o: .o
            case .random: random.next() & 1 == 0 ? .x : .o
            }
        }
    }

    /// Plays against the AI at `level` from `start`, the person on `side`; `seed` makes the AI's
    /// choices and the random side repeatable.
    public static func againstAI(
        from start: Position, level: Level, side: SideChoice, seed: UInt64?, console: any TerminalConsole
    ) {
        let random = seed.map { RandomSource(seed: $0) } ?? RandomSource()
        let opponent = AIOpponent(level: level, random: random)
        let adviser = Engine(hashMegabytes: 4)
        TerminalGame.playAgain(on: console) {
            let person = side.side(drawingFrom: random)
            opponent.newGame()
            console.say(
                "you play \(person) against the AI at level \(level.number) (\(level.about)); type ? for help"
            )
            return game(
                from: start, person: person, against: opponent, console: console, hint: adviser.hint(for:))
        }
    }

    /// One game of the person on `person` against `opponent`: the labels and PGN tags name them.
    static func game(
        from start: Position, person: Side, against opponent: any MoveSource, console: any TerminalConsole,
        files: any GameFiles = LocalFiles(), hint: @escaping (Position) -> Move?
    ) -> TerminalGame {
        // PGN's White is x.
        let (personTag, opponentTag) = person == .x ? ("White", "Black") : ("Black", "White")
        var tags = ["Event": "nanashi play", personTag: "you", opponentTag: "nanashi \(opponent.label)"]
        tags[opponentTag + "Elo"] = opponent.rating.map(String.init)
        let shown = opponent.rating.map { "\(opponent.label), about \($0)" } ?? opponent.label
        return TerminalGame(
            game: Game(start: start), console: console, files: files,
            opponents: [person.opponent: opponent],
            labels: [person: "you", person.opponent: shown], flipped: false, tags: tags, hint: hint)
    }

    /// Every level with its rating, `level: rating`, six levels a line (`nanashi play --help`).
    public static var levelTable: String {
        let entries = Level.all.map { "\($0.number): \($0.elo)" }
        return stride(from: 0, to: entries.count, by: 6).map { first in
            let line = entries[first..<min(first + 6, entries.count)]
            return line.dropLast().map { $0 + String(repeating: " ", count: 10 - $0.count) }.joined()
                + line.last!
        }.joined(separator: "\n")
    }

    /// Two people take turns at the keyboard, from `start`.
    public static func hotseat(from start: Position, console: any TerminalConsole) {
        let adviser = Engine(hashMegabytes: 4)
        console.say("hot seat: x and o take turns at this keyboard; type ? for help")
        TerminalGame.playAgain(on: console) {
            hotseatGame(from: start, console: console, hint: adviser.hint(for:))
        }
    }

    /// One game of two people at the keyboard.
    static func hotseatGame(
        from start: Position, console: any TerminalConsole, files: any GameFiles = LocalFiles(),
        hint: @escaping (Position) -> Move?
    ) -> TerminalGame {
        TerminalGame(
            game: Game(start: start), console: console, files: files, opponents: [:], labels: [:],
            flipped: false, tags: ["Event": "nanashi hotseat", "White": "x", "Black": "o"], hint: hint)
    }
}
