import NanashiProtocol

/// The leaderboard and profiles as a person reads them: aligned columns, ratings written
/// `1662 ± 290` with `?` after a provisional one.
public enum StandingsTable {
    /// A rating counts as provisional from this deviation up, as the server decides it.
    public static let provisionalDeviation = 110

    /// The leaderboard page, a heading, one line per player, and a line saying which part of
    /// the whole this is:
    ///
    ///         #  name                  rating         games    won   lost   drawn
    ///         1  ann                   1662 ± 290 ?       1      1      0       0
    ///     1-1 of 1 rated players; ? = provisional
    public static func leaderboard(_ board: Leaderboard) -> [String] {
        guard !board.entries.isEmpty else {
            return [
                board.total == 0 ? "No rated players yet." : "No players on this page (\(board.total) rated)."
            ]
        }
        var lines = [
            [
                pad("#", 5), pad("name", 20, right: false), pad("rating", 12, right: false), pad("games", 6),
                pad("won", 5), pad("lost", 5), pad("drawn", 6),
            ].joined(separator: "  ")
        ]
        for entry in board.entries {
            lines.append(
                [
                    pad(String(entry.rank), 5), pad(entry.name, 20, right: false),
                    pad(rating(entry.rating, entry.rd, provisional: entry.provisional), 12, right: false),
                    pad(String(entry.games), 6), pad(String(entry.wins), 5), pad(String(entry.losses), 5),
                    pad(String(entry.draws), 6),
                ].joined(separator: "  "))
        }
        let shown = "\(board.entries.first!.rank)-\(board.entries.last!.rank) of \(board.total) rated players"
        lines.append(board.entries.contains(where: \.provisional) ? shown + "; ? = provisional" : shown)
        return lines
    }

    /// One player's record, then their recent games against people, newest first (then those
    /// against the computer, if any, apart and without rating changes):
    ///
    ///     ann
    ///     rating  1662 ± 290 ? (provisional)
    ///     rank    1
    ///     games   1: 1 won, 0 lost, 0 drawn
    ///
    ///      game  side  opponent              result  reason    rating
    ///         1  x     bob                   win     resign      +162
    ///
    /// The built-in engine's player is shown at its level's strength, with its games (all
    /// unrated): the server keeps it at an unrated 1500, with no rank and no rated games.
    public static func profile(_ profile: Profile) -> [String] {
        if let level = Opponent.engineLevel(named: profile.name) {
            let strength = Opponent(name: profile.name, rating: profile.rating).strength
            var lines = [
                profile.name,
                "strength \(strength) (the server's engine at level \(level); its games are unrated)",
            ]
            if !profile.computer.isEmpty {
                lines += ["", "games:"] + games(profile.computer, rated: false)
            }
            return lines
        }
        let provisional = profile.rd >= provisionalDeviation
        var lines = [
            profile.name,
            "rating  " + rating(profile.rating, profile.rd, provisional: provisional)
                + (provisional ? " (provisional)" : ""),
            "rank    " + (profile.rank.map(String.init) ?? "none yet (no rated games)"),
            "games   \(profile.games): \(profile.wins) won, \(profile.losses) lost, \(profile.draws) drawn",
        ]
        if !profile.recent.isEmpty {
            lines.append("")
            lines += games(profile.recent, rated: true)
        }
        if !profile.computer.isEmpty {
            lines.append("")
            lines.append("against the computer (unrated):")
            lines += games(profile.computer, rated: false)
        }
        return lines
    }

    /// A heading, then a line per game; the rating change only for rated games.
    private static func games(_ games: [RecentGame], rated: Bool) -> [String] {
        let heading = [
            pad("game", 5), pad("side", 4, right: false), pad("opponent", 20, right: false),
            pad("result", 6, right: false), pad("reason", 7, right: false),
        ]
        let rows = games.map { game in
            [
                pad(String(game.game), 5), pad(game.color.rawValue, 4, right: false),
                pad(game.opponent, 20, right: false), pad(game.result.rawValue, 6, right: false),
                pad(game.outcome.reason.rawValue, 7, right: false),
            ] + (rated ? [pad(signed(game.ratingChange), 6)] : [])
        }
        // Without the rating column, the reason ends the line: no padding after it.
        return ([heading + (rated ? [pad("rating", 6)] : [])] + rows).map { columns in
            let line = columns.joined(separator: "  ")
            return rated ? line : String(line.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// `1662 ± 290`, with ` ?` when provisional.
    static func rating(_ rating: Int, _ rd: Int, provisional: Bool) -> String {
        "\(rating) ± \(rd)" + (provisional ? " ?" : "")
    }

    /// `+162`, `-162`, `0`.
    public static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

    static func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
