import Foundation
import NanashiProtocol
import NanashiStorage

/// `nanashi admin suspects`: the players whose accuracy stands far above everyone else's, with
/// the figures, for a person to review (docs/OPERATIONS.md, Fair play).
extension Moderation {
    /// The analyses read at most: the latest rated games' of the whole server.
    package static let analysesRead = 50_000

    /// The report: a heading with the population, then one line per player who stands out (every
    /// player counted, with `all`), highest first, then what to do.
    ///
    /// - Throws: `ModerationError` for settings out of range.
    package func suspects(_ settings: FairPlay.Settings, all: Bool) async throws -> [String] {
        guard settings.lastGames >= 1, settings.minimumGames >= 1, settings.minimumGames <= settings.lastGames
        else {
            throw ModerationError("--games is 1 or more, and --min-games 1 to --games")
        }
        guard settings.zThreshold > 0, settings.zThreshold.isFinite else {
            throw ModerationError("--z is a positive number")
        }
        let analyses = try await storage.ratedAnalyses(limit: Self.analysesRead)
        let players = FairPlay.players(analyses, lastGames: settings.lastGames)
        let counted = players.values.filter { $0.games >= settings.minimumGames }.count
        let standings = FairPlay.standings(players, settings: settings)
        var lines = [
            "\(analyses.count) analysed rated games; \(counted) players with at least \(settings.minimumGames), "
                + "each counted over their latest \(settings.lastGames)",
            "accurate: a move that lost at most \(Self.pieces(Accuracy.accurateLoss)) pieces by the analysis; "
                + "loss: the average per move, in pieces",
        ]
        guard !standings.isEmpty else {
            lines.append(
                "too few players to set one against the others: \(settings.minimumOthers + 1) with "
                    + "\(settings.minimumGames) analysed rated games are needed")
            return lines
        }
        let shown = all ? standings : standings.filter { $0.z >= settings.zThreshold }
        if !shown.isEmpty {
            lines.append(Self.row("player", "games", "moves", "accurate", "loss", "others", "z"))
        }
        for standing in shown {
            let (player, accuracy) = (standing.player, standing.player.accuracy)
            lines.append(
                Self.row(
                    player.name, "\(player.games)", "\(accuracy.moves)", Self.percent(accuracy.percent),
                    Self.pieces(Int(accuracy.averageLoss.rounded())),
                    "\(Self.percent(standing.othersMean)) ± \(String(format: "%.1f", standing.othersSpread))",
                    String(format: "%+.1f", standing.z)))
        }
        let out = standings.filter { $0.z >= settings.zThreshold }.count
        let threshold = String(format: "%.1f", settings.zThreshold)
        lines.append(
            out == 0
                ? "no player stands out (z at least \(threshold))"
                : "\(out) \(out == 1 ? "player stands" : "players stand") out (z at least \(threshold)): "
                    + "review their games before any 'nanashi admin mark NAME --reason WHY'")
        return lines
    }

    private static func row(_ columns: String...) -> String {
        let widths = [20, 6, 7, 9, 6, 15, 6]
        return zip(columns, widths).enumerated().map { index, column in
            let (text, width) = column
            let padding = String(repeating: " ", count: max(width - text.count, 0))
            return index == 0 ? text + padding : padding + text
        }.joined(separator: " ")
    }

    private static func percent(_ value: Double) -> String { String(format: "%.1f%%", value) }

    private static func pieces(_ centipieces: Int) -> String {
        String(format: "%.2f", Double(centipieces) / 100)
    }
}
