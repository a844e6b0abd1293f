import NanashiCore

/// One line typed by the player, understood: a square, a full move, or a command.
public enum Command: Hashable, Sendable {
    /// A bare square: selects a piece of yours, or plays to it (see `Selection`).
    case square(Square)
    /// A full move such as `a1c3`, or `0000` / `pass`.
    case move(Move)
    /// `help` or `?`: the list of commands.
    case help
    /// `moves`: the legal moves here.
    case moves
    /// `undo`: take back the last move (against the AI, your move and its reply).
    case undo
    /// `hint`: the AI's suggestion.
    case hint
    /// `save FILE`: write the game as PGN.
    case save(path: String)
    /// `load FILE`: read a game from PGN and continue it.
    case load(path: String)
    /// `flip`: turn the board around.
    case flip
    /// `board`: draw the board again.
    case board
    /// `resign`: give up the game.
    case resign
    /// `draw`: offer a draw, or accept the opponent's offer (online).
    case draw
    /// `decline`: decline the opponent's draw offer, or the challenge last received (online).
    case declineDraw
    /// `accept`: take up the challenge last received (online).
    case acceptChallenge
    /// `takeback`: ask to take back one's last move, or accept the opponent's asking (online,
    /// casual games).
    case takeback
    /// `quit`: leave the program.
    case quit
    /// An empty line: nothing to do.
    case nothing

    /// The commands as `help` lists them, one per line.
    public static let helpText = """
        Moves:  type a square with your piece (b2) to see where it can go, then the destination (c3).
                A square alone (c3) clones there; two squares (a1c3) jump; pass (or 0000) when you cannot move.
        moves          list the legal moves
        undo           take back the last move (against the AI: your move and its reply)
        hint           ask the AI for a move
        save FILE      save the game as PGN
        load FILE      load a game from PGN and go on from its last position
        flip           turn the board around
        board          draw the board again
        resign         give up this game
        quit           leave (also Ctrl-C or Ctrl-D)
        In full screen h, j, k and l move the cursor until the next letter makes them a word (hint).
        """

    /// The commands that begin with a letter the full screen's cursor keys use (h, j, k, l):
    /// typed on an empty line, those letters read as the start of one of these words once the
    /// next letter could continue it.
    static let cursorLetterWords = ["help", "hint", "load"]

    /// Reads one line of input. Case and surrounding spaces do not matter, except in file names.
    ///
    /// - Throws: `CommandParseError` with a message saying why the line means nothing.
    public init(parsing line: some StringProtocol) throws(CommandParseError) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard let first = words.first else {
            self = .nothing
            return
        }
        let word = first.lowercased()
        let argument = words.count > 1 ? Self.rest(of: line) : nil
        switch word {
        case "save", "load":
            guard let argument else { throw .missingFile(command: word) }
            self = word == "save" ? .save(path: argument) : .load(path: argument)
            return
        default:
            break
        }
        guard words.count == 1 else { throw .unexpectedArgument(command: word) }
        switch word {
        case "help", "?", "h": self = .help
        case "moves": self = .moves
        case "undo", "u": self = .undo
        case "hint": self = .hint
        case "flip": self = .flip
        case "board": self = .board
        case "resign": self = .resign
        case "draw": self = .draw
        case "decline": self = .declineDraw
        case "accept": self = .acceptChallenge
        case "takeback": self = .takeback
        case "quit", "exit", "q": self = .quit
        case "pass", "0000": self = .move(.pass)
        default:
            self = try Self.parseMove(word)
        }
    }

    /// The text after the first word, trimmed, so a file name may contain spaces.
    private static func rest(of line: some StringProtocol) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        var rest = Substring(String(line))
        while let character = rest.first, isSpace(character) { rest = rest.dropFirst() }
        while let character = rest.first, !isSpace(character) { rest = rest.dropFirst() }
        while let character = rest.first, isSpace(character) { rest = rest.dropFirst() }
        while let character = rest.last, isSpace(character) { rest = rest.dropLast() }
        return String(rest)
    }

    private static func parseMove(_ word: String) throws(CommandParseError) -> Command {
        // Only text shaped like a move ("letter digit ...") gets the move parser's message;
        // anything else is an unknown command.
        let characters = Array(word)
        guard characters.count >= 2, characters[0].isLetter, characters[1].isNumber, characters.count <= 4
        else {
            throw .unknown(word)
        }
        let move: Move
        do {
            move = try Move(notation: word)
        } catch {
            throw .badMove(error)
        }
        if case .clone(let to) = move, characters.count == 2 { return .square(to) }
        return .move(move)
    }
}

/// Why a line of input means nothing.
public enum CommandParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Neither a square, a move nor a command.
    case unknown(String)
    /// Looks like a move but is not one.
    case badMove(MoveParseError)
    /// `save` or `load` without a file name.
    case missingFile(command: String)
    /// A command that takes no argument was given one.
    case unexpectedArgument(command: String)

    public var description: String {
        switch self {
        case .unknown(let word):
            // Control characters (a function key's escape sequence) are shown, not sent to the terminal.
            let shown = String(
                word.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
            return "'\(shown)' is not a move or a command (type ? for help)"
        case .badMove(let error): return error.description
        case .missingFile(let command): return "\(command) needs a file name, like: \(command) game.pgn"
        case .unexpectedArgument(let command): return "\(command) takes no argument"
        }
    }
}
