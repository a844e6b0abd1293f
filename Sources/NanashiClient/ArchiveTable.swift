import NanashiProtocol

/// A player's finished games as a person reads them: one aligned line per game, newest first.
public enum ArchiveTable {
    /// A heading and one line per game, then how to see older ones when the page is full:
    ///
    ///      game  ended             x                      o                      result  reason  plies
    ///       251  2027-01-15 08:00  bob 1500               Ann 1500               o       resign      1
    public static func games(_ archive: GameArchive, pageSize: Int) -> [String] {
        guard let oldest = archive.games.last else { return ["No finished games for \(archive.name)."] }
        var lines = [
            [
                pad("game", 5), pad("ended", 16, false), pad("x", 21, false), pad("o", 21, false),
                pad("result", 6, false), pad("reason", 7, false), pad("plies", 5),
            ].joined(separator: "  ")
        ]
        for game in archive.games {
            lines.append(
                [
                    pad(String(game.game), 5), pad(shortTime(game.ended), 16, false),
                    pad(player(game.x), 21, false), pad(player(game.o), 21, false),
                    pad(game.outcome.winner?.rawValue ?? "draw", 6, false),
                    pad(game.outcome.reason.rawValue, 7, false),
                    pad(String(game.plies), 5),
                ].joined(separator: "  "))
        }
        if archive.games.count >= pageSize {
            lines.append("older games: --before \(oldest.game)")
        }
        return lines
    }

    private static func pad(_ text: String, _ width: Int, _ right: Bool = true) -> String {
        StandingsTable.pad(text, width, right: right)
    }

    /// `ann 1500` (`Opponent.label`).
    static func player(_ player: GamePlayer) -> String { player.label }

    /// `2027-01-15T08:00:00Z` as `2027-01-15 08:00`; anything else as it is.
    static func shortTime(_ iso: String) -> String {
        guard iso.count >= 16, iso.dropFirst(10).first == "T" else { return iso }
        return iso.prefix(10) + " " + iso.dropFirst(11).prefix(5)
    }
}
