import Foundation
import NanashiAI
import NanashiCore

// The lines `nanashi match` prints, kept beside the match so that the command only wires.

extension Match {
    /// `match: A vs B, N games, depth D, max P plies`: what is about to be played.
    public var header: String {
        var parts: [String] = []
        if let depth = limits.depth { parts.append("depth \(depth)") }
        if let nodes = limits.nodes { parts.append("nodes \(nodes)") }
        if let movetime = limits.movetime { parts.append("movetime \(movetime.wholeMilliseconds) ms") }
        if let timeControl { parts.append("tc \(timeControl.secondsNotation)") }
        if parts.isEmpty { parts.append("each engine's own limits") }
        return "match: \(first) vs \(second), \(schedule.count) games, "
            + parts.joined(separator: ", ") + ", max \(maxPlies) plies"
    }

    /// The closing lines: the score, the Elo difference, and the SPRT's verdict when there is one.
    public func closingLines(_ tally: Tally) -> [String] {
        var lines = ["\(first) vs \(second): \(tally.summary)", tally.eloLine]
        if let sprt { lines.append("sprt: \(sprt.verdict(tally));" + sprt.progress(tally)) }
        return lines
    }
}

extension Match {
    /// What `nanashi match` does: prints the header, a line per game as it ends (appending the
    /// game to the PGN file at `pgnPath`, if any), then the closing lines.
    ///
    /// - Throws: `AppendingFile.Problem` when the PGN file cannot be written, or the match's
    ///   errors.
    public func play(appendingPGNTo pgnPath: String?, line: @escaping @Sendable (String) -> Void) throws {
        let pgnFile = try pgnPath.map { path throws(AppendingFile.Problem) in try AppendingFile(path: path) }
        defer { pgnFile?.close() }
        line(header)
        let tally = try run { report in
            line(report.line(of: self))
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
