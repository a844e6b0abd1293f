/// Why a text is not a readable PGN game.
public enum PGNError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text holds no game.
    case empty
    /// A tag line that is not `[Name "value"]`.
    case badTag(String)
    /// The `FEN` tag is not a valid FEN.
    case badFEN(FENError)
    /// A token in the moves that is not a move, a move number, a comment or a result.
    case badMove(String, MoveParseError)
    /// A move that cannot be played where it stands (`ply` counts from 1).
    case illegalMove(ply: Int, IllegalMoveError)
    /// A `{` comment or a `(` variation that is never closed, or a `)` without its `(`.
    case unbalanced(String)
    /// Text after the result token.
    case trailingText(String)

    public var description: String {
        switch self {
        case .empty: return "no game found"
        case .badTag(let line): return "bad tag line '\(line)': expected [Name \"value\"]"
        case .badFEN(let error): return "bad FEN tag: \(error)"
        case .badMove(let token, let error): return "bad move '\(token)': \(error)"
        case .illegalMove(let ply, let error): return "move \(ply): \(error)"
        case .unbalanced(let what): return "unbalanced \(what)"
        case .trailingText(let text): return "unexpected '\(text)' after the result"
        }
    }
}

extension GameRecord {
    private static let results: Set<String> = ["1-0", "0-1", "1/2-1/2", "*"]

    /// Reads the first game of a PGN text: tags, then the main line of moves.
    ///
    /// Comments (`{...}` and `;` to the end of the line), variations `(...)`, move numbers,
    /// `$n` annotations and `!`/`?` suffixes are skipped. Every move is checked in turn; an
    /// illegal one makes the whole text unreadable.
    public init(pgn: String) throws(PGNError) {
        var tags: [String: String] = [:]
        var movetext: [Substring] = []
        var inMoves = false
        for line in pgn.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        {
            let trimmed = line.trimmingWhitespace()
            if !inMoves && trimmed.isEmpty { continue }
            if !inMoves && trimmed.hasPrefix("[") {
                let (name, value) = try Self.tag(trimmed)
                tags[name] = value
                continue
            }
            if inMoves && trimmed.hasPrefix("[") { break }  // the next game's tags
            inMoves = true
            movetext.append(line)
        }
        guard !tags.isEmpty || !movetext.isEmpty else { throw .empty }

        var start = Position.start
        if let fen = tags["FEN"] {
            do { start = try Position(fen: fen) } catch { throw .badFEN(error) }
        }
        var record = GameRecord(start: start, tags: tags.filter { $0.key != "FEN" && $0.key != "Result" })
        record.result = tags["Result"].flatMap { Self.results.contains($0) ? $0 : nil } ?? "*"
        var finished = false
        for token in Self.tokens(movetext.joined(separator: "\n")) {
            switch token {
            case .unbalanced(let what):
                throw .unbalanced(what)
            case .word(let word):
                if finished { throw .trailingText(word) }
                if Self.results.contains(word) {
                    record.result = word
                    finished = true
                    continue
                }
                let move: Move
                do { move = try Move(notation: word) } catch { throw .badMove(word, error) }
                do { try record.append(move) } catch {
                    throw .illegalMove(ply: record.moves.count + 1, error)
                }
            }
        }
        self = record
    }

    private static func tag(_ line: String) throws(PGNError) -> (String, String) {
        guard line.hasSuffix("]"), let space = line.firstIndex(of: " ") else { throw .badTag(line) }
        let name = line[line.index(after: line.startIndex)..<space]
        var value = line[line.index(after: space)..<line.index(before: line.endIndex)].trimmingWhitespace()[
            ...]
        guard !name.isEmpty, value.count >= 2, value.first == "\"", value.last == "\"" else {
            throw .badTag(line)
        }
        value = value.dropFirst().dropLast()
        var unescaped = ""
        var escaping = false
        for character in value {
            if escaping || character != "\\" {
                unescaped.append(character)
                escaping = false
            } else {
                escaping = true
            }
        }
        return (String(name), unescaped)
    }

    private enum Token {
        case word(String)
        case unbalanced(String)
    }

    /// The main-line words of the movetext, without numbers, comments, variations or annotations.
    private static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var word = ""
        var variationDepth = 0
        var inComment = false
        var inLineComment = false

        func endWord() {
            defer { word = "" }
            guard variationDepth == 0 else { return }
            var cleaned = Substring(word)
            while let last = cleaned.last, last == "!" || last == "?" { cleaned.removeLast() }
            if let dot = cleaned.lastIndex(of: "."), cleaned[..<dot].allSatisfy({ $0.isNumber || $0 == "." })
            {
                cleaned = cleaned[cleaned.index(after: dot)...]  // "1." or "1...a2"
            }
            guard !cleaned.isEmpty, !cleaned.hasPrefix("$") else { return }
            tokens.append(.word(String(cleaned)))
        }

        for character in text {
            if inLineComment {
                if character == "\n" { inLineComment = false }
                continue
            }
            if inComment {
                if character == "}" { inComment = false }
                continue
            }
            switch character {
            case "{":
                endWord()
                inComment = true
            case "}":
                return tokens + [.unbalanced("'}' without its '{'")]
            case ";":
                endWord()
                inLineComment = true
            case "(":
                endWord()
                variationDepth += 1
            case ")":
                endWord()
                guard variationDepth > 0 else { return tokens + [.unbalanced("')' without its '('")] }
                variationDepth -= 1
            case " ", "\t", "\n", "\r":
                endWord()
            default:
                word.append(character)
            }
        }
        endWord()
        if inComment { tokens.append(.unbalanced("comment: '{' is never closed")) }
        if variationDepth > 0 { tokens.append(.unbalanced("variation: '(' is never closed")) }
        return tokens
    }
}
