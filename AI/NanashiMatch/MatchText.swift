import Foundation
import NanashiAI
import NanashiCore

// The lines `nanashi match` prints, kept beside the match so that the command only wires.

extension Match {
    /// `match: A vs B, N games, depth D, max P plies`: what is about to be played.
    public var header: String {
        "match: \(first) vs \(second), \(schedule.count) games, \(limitsText), max \(maxPlies) plies"
    }

    /// How each move is played: `depth D`, `nodes N`, `movetime M ms`, `tc T`, or the engines' own
    /// limits.
    var limitsText: String {
        var parts: [String] = []
        if let depth = limits.depth { parts.append("depth \(depth)") }
        if let nodes = limits.nodes { parts.append("nodes \(nodes)") }
        if let movetime = limits.movetime { parts.append("movetime \(movetime.wholeMilliseconds) ms") }
        if let timeControl { parts.append("tc \(timeControl.secondsNotation)") }
        if parts.isEmpty { parts.append("each engine's own limits") }
        return parts.joined(separator: ", ")
    }

    /// The closing lines: the score, the Elo difference by games and by pairs, and the SPRT's
    /// verdict when there is one.
    public func closingLines(_ tally: Tally) -> [String] {
        var lines = ["\(first) vs \(second): \(tally.summary)", tally.eloLine]
        if let pairsLine = tally.pairsLine { lines.append(pairsLine) }
        if let sprt { lines.append("sprt: \(sprt.verdict(tally));" + sprt.progress(tally)) }
        return lines
    }
}

extension Match {
    /// What `nanashi match` does: prints the header, a line per game as it ends (appending the
    /// game to the PGN file at `pgnPath` and its result to the journal at `journalPath`, if
    /// any), then the closing lines. With a journal that holds games already, it says so after
    /// the header, counts them and plays only the others.
    ///
    /// - Throws: `AppendingFile.Problem` when the PGN file or the journal cannot be written,
    ///   `MatchError` for a journal that cannot be read or is another match's, or the match's
    ///   errors.
    public func play(
        appendingPGNTo pgnPath: String?, journal journalPath: String? = nil,
        line: @escaping @Sendable (String) -> Void
    ) throws {
        let pgnFile = try pgnPath.map { path throws(AppendingFile.Problem) in try AppendingFile(path: path) }
        defer { pgnFile?.close() }
        let opened = try journalPath.map { path in try MatchJournal.open(path, for: self) }
        let journal = opened?.0 ?? MatchJournal()
        let journalFile = opened?.1
        defer { journalFile?.close() }
        line(header)
        if let journalPath, !journal.results.isEmpty {
            line(
                "journal \(journalPath): \(journal.results.count) games already played, \(journal.tally.summary)"
            )
        }
        let tally = try run(after: journal) { report in
            line(report.line(of: self))
            journalFile?.append(MatchJournal.line(round: report.game.round, result: report.result))
            pgnFile?.append(
                report.played.pgn(
                    event: "nanashi match", round: report.game.round, xName: report.xName, oName: report.oName
                ))
        }
        for closing in closingLines(tally) { line(closing) }
    }
}

extension Match.Report {
    /// `game K/N: A (x) vs B (o) RESULT ENDING, P plies; SCORE`, then the SPRT's progress.
    public func line(of match: Match) -> String {
        var line =
            "game \(tally.games)/\(match.schedule.count): \(xName) (x) vs \(oName) (o)"
            + " \(played.outcome.result) \(played.ending), \(played.moves.count) plies; \(tally.summary)"
        if let sprt = match.sprt { line += sprt.progress(tally) }
        return line
    }
}

extension SPRT {
    /// ` llr R (LOWER, UPPER)`: the log-likelihood ratio so far and the bounds it is heading for.
    public func progress(_ tally: Tally) -> String {
        String(format: " llr %.2f (%.2f, %.2f)", logLikelihoodRatio(tally), lowerBound, upperBound)
    }

    /// What the test has decided, in words.
    public func verdict(_ tally: Tally) -> String {
        switch decision(tally) {
        case .acceptElo1: return "H1 accepted (elo >= \(Tally.signed(elo1)))"
        case .acceptElo0: return "H0 accepted (elo <= \(Tally.signed(elo0)))"
        case .undecided: return "undecided"
        }
    }
}
