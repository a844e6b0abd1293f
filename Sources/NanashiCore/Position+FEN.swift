/// Why a text is not a valid FEN. Parsing either succeeds completely or throws one of these.
public enum FENError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text was empty.
    case empty
    /// Not 2 to 4 space-separated fields (board, side, and optionally the two counters).
    case wrongFieldCount(Int)
    /// The board does not have 7 ranks separated by `/`.
    case wrongRankCount(Int)
    /// A rank (1 to 7) does not describe exactly 7 squares.
    case wrongRankLength(rank: Int, squares: Int)
    /// A character that is not `x`, `o`, `-` or a digit 1 to 7 in the board.
    case badCharacter(Character, rank: Int)
    /// The side to move is not `x` or `o`.
    case badSide(String)
    /// The halfmove clock is not a whole number from 0 up.
    case badHalfmoveClock(String)
    /// The fullmove number is not a whole number from 0 up (python-ataxx writes 0).
    case badFullmoveNumber(String)

    public var description: String {
        switch self {
        case .empty: return "empty FEN"
        case .wrongFieldCount(let count):
            return
                "a FEN has 2 to 4 fields (board, side to move, halfmove clock, fullmove number), not \(count)"
        case .wrongRankCount(let count): return "the board must have 7 ranks separated by '/', not \(count)"
        case .wrongRankLength(let rank, let squares):
            return "rank \(rank) describes \(squares) squares instead of 7"
        case .badCharacter(let character, let rank):
            return "unexpected '\(character)' in rank \(rank): use x, o, - or a digit from 1 to 7"
        case .badSide(let text): return "the side to move must be x or o, not '\(text)'"
        case .badHalfmoveClock(let text):
            return "the halfmove clock must be a whole number from 0, not '\(text)'"
        case .badFullmoveNumber(let text):
            return "the fullmove number must be a whole number from 0, not '\(text)'"
        }
    }
}

extension Position {
    /// Counters above this are refused so that adding plies can never overflow.
    private static let counterLimit = 1 << 30

    /// Reads a position from FEN, such as `x5o/7/7/7/7/7/o5x x 0 1`, or the word `startpos`.
    ///
    /// The two counters may be left out (they default to 0 and 1). Pieces and the side to move
    /// may be written in either case. Anything else malformed throws; no partly read position is
    /// ever produced.
    public init(fen: String) throws(FENError) {
        let fields = fen.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        if fields.isEmpty { throw .empty }
        if fields.count == 1 && fields[0] == "startpos" {
            self = .start
            return
        }
        guard (2...4).contains(fields.count) else { throw .wrongFieldCount(fields.count) }

        let ranks = fields[0].split(separator: "/", omittingEmptySubsequences: false)
        guard ranks.count == 7 else { throw .wrongRankCount(ranks.count) }
        var x: UInt64 = 0
        var o: UInt64 = 0
        var blockers: UInt64 = 0
        for (row, text) in ranks.enumerated() {
            let rank = 7 - row
            var file = 0
            for character in text {
                if let run = character.wholeNumberValue, (1...7).contains(run), character.isASCII {
                    file += run
                    continue
                }
                if file < 7 {
                    let bit: UInt64 = 1 << UInt64((rank - 1) * 7 + file)
                    switch character {
                    case "x", "X": x |= bit
                    case "o", "O": o |= bit
                    case "-": blockers |= bit
                    default: throw .badCharacter(character, rank: rank)
                    }
                } else if !"xXoO-".contains(character) {
                    throw .badCharacter(character, rank: rank)
                }
                file += 1
            }
            guard file == 7 else { throw .wrongRankLength(rank: rank, squares: file) }
        }

        let sideText = fields[1].lowercased()
        guard let side = Side(rawValue: sideText) else { throw .badSide(String(fields[1])) }
        var halfmoveClock = 0
        if fields.count >= 3 {
            guard let value = Int(fields[2]), (0...Self.counterLimit).contains(value) else {
                throw .badHalfmoveClock(String(fields[2]))
            }
            halfmoveClock = value
        }
        var fullmoveNumber = 1
        if fields.count == 4 {
            guard let value = Int(fields[3]), (0...Self.counterLimit).contains(value) else {
                throw .badFullmoveNumber(String(fields[3]))
            }
            fullmoveNumber = value
        }
        self.init(
            x: x, o: o, blockers: blockers, sideToMove: side, halfmoveClock: halfmoveClock,
            fullmoveNumber: fullmoveNumber)
    }

    /// The position in canonical four-field FEN, as libataxx writes it: written into one string
    /// of its final size (a server writes one a move).
    public var fen: String {
        let (halfmove, fullmove) = (String(halfmoveClock).utf8, String(fullmoveNumber).utf8)
        // 49 squares and 6 slashes at the most, then three spaces and the side.
        return String(unsafeUninitializedCapacity: 59 + halfmove.count + fullmove.count) { text in
            var count = 0
            func put(_ byte: UInt8) {
                text[count] = byte
                count += 1
            }
            for rank in (0..<7).reversed() {
                var run: UInt8 = 0
                for file in 0..<7 {
                    let bit: UInt64 = 1 << UInt64(rank * 7 + file)
                    let symbol: UInt8? =
                        xBits & bit != 0
                        ? UInt8(ascii: "x")
                        : oBits & bit != 0
                            ? UInt8(ascii: "o") : blockerBits & bit != 0 ? UInt8(ascii: "-") : nil
                    guard let symbol else {
                        run += 1
                        continue
                    }
                    if run > 0 { put(UInt8(ascii: "0") + run) }
                    run = 0
                    put(symbol)
                }
                if run > 0 { put(UInt8(ascii: "0") + run) }
                if rank > 0 { put(UInt8(ascii: "/")) }
            }
            put(UInt8(ascii: " "))
            put(sideToMove == .x ? UInt8(ascii: "x") : UInt8(ascii: "o"))
            put(UInt8(ascii: " "))
            halfmove.forEach(put)
            put(UInt8(ascii: " "))
            fullmove.forEach(put)
            return count
        }
    }
}
