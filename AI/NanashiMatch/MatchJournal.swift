import Foundation
import NanashiCore

/// A match's results kept as they come, a line a game, so that a match stopped part way (by
/// Ctrl-C, or because the machine is wanted for something else) goes on later: the same command
/// with the same journal plays only the games the journal does not hold, and counts those it does.
///
/// The first line names the match: the engines, how each move is played, the most plies and the
/// openings (their number and a fingerprint of their FENs). A journal of another match is
/// refused. The number of games may grow: a match of 200 games carried on as one of 400 plays
/// rounds 201 to 400, whose openings follow in the same order. Every other line is a round and
/// its result from the first engine's point of view: `17 W`, `18 D`, `19 L`.
public struct MatchJournal: Sendable {
    /// The rounds the journal holds, and their results.
    public private(set) var results: [Int: Tally.Result] = [:]

    /// The score of the games the journal holds, and of the pairs among them.
    public var tally: Tally {
        var tally = Tally()
        for (round, result) in results {
            tally.add(result)
            if round % 2 == 1, let second = results[Match.partner(of: round)] {
                tally.addPair(result, second)
            }
        }
        return tally
    }

    /// A journal of no games.
    public init() {}

    /// Reads a journal's text for `match`; empty text is a journal of no games.
    ///
    /// - Throws: `MatchError`, naming the line, for a journal of another match, a line that is
    ///   not a round and a result, a round given twice or a round past the match's games.
    public init(parsing text: String, for match: Match) throws(MatchError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, !first.isEmpty else { return }
        let identity = Self.identity(of: match)
        guard first == identity else {
            throw MatchError(
                "the journal is of another match: its first line is '\(first.prefix(300))', not '\(identity)'"
            )
        }
        let games = match.schedule.count
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            let place = "journal line \(index + 1)"
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count == 2, let round = Int(fields[0]), round > 0,
                let result = Tally.Result(rawValue: String(fields[1]))
            else {
                throw MatchError(
                    "\(place): expected a round and W, D or L, like '17 W', not '\(line.prefix(100))'")
            }
            guard round <= games else {
                throw MatchError("\(place): round \(round) is past this match's \(games) games")
            }
            guard results[round] == nil else { throw MatchError("\(place): round \(round) is there twice") }
            results[round] = result
        }
    }

    /// The journal at `path` for `match`, read, and the file opened to append to: created, and
    /// its first line written, when it does not exist or is empty.
    ///
    /// - Throws: `MatchError` for a file that cannot be read or a journal `init(parsing:for:)`
    ///   refuses; `AppendingFile.Problem` for a file that cannot be written.
    public static func open(_ path: String, for match: Match) throws -> (MatchJournal, AppendingFile) {
        var text = ""
        if FileManager.default.fileExists(atPath: path) {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw MatchError("cannot read journal '\(path)'")
            }
            text = contents
        }
        let journal = try MatchJournal(parsing: text, for: match)
        let file = try AppendingFile(path: path)
        if text.isEmpty {
            file.append(identity(of: match))
        } else if !text.hasSuffix("\n") {
            // A last line written by hand without its line break: the next round starts a line.
            file.append("")
        }
        return (journal, file)
    }

    /// The first line of a journal of `match`.
    public static func identity(of match: Match) -> String {
        "# nanashi match journal: \(match.first) vs \(match.second), \(match.limitsText), max \(match.maxPlies) plies, "
            + "\(match.openings.count) openings \(fingerprint(match.openings))"
    }

    /// A round's line.
    public static func line(round: Int, result: Tally.Result) -> String { "\(round) \(result.rawValue)" }

    /// The openings' FENs, a line each, hashed (64-bit FNV-1a) and written in 16 hex digits: the
    /// same file gives the same digits on every machine and run.
    static func fingerprint(_ openings: [Position]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in openings.map(\.fen).joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
