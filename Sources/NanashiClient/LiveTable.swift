import Foundation
import NanashiCore
import NanashiProtocol

/// The games in progress as a person picks one to watch: numbered lines, highest-rated first.
public enum LiveTable {
    /// One numbered line per game:
    ///
    ///      1. game 12  ann 1612 (x) v bob 1580 (o)  5+3  ply 14
    public static func lines(_ games: [LiveGame]) -> [String] {
        guard !games.isEmpty else { return ["No games in progress."] }
        return games.enumerated().map { index, game in
            let number = StandingsTable.pad("\(index + 1).", 4)
            return
                "\(number) game \(game.game)  \(game.x.label) (x) v \(game.o.label) (o)  \(game.control)  ply \(game.ply)"
        }
    }

    /// The game picked by what the user typed: a number from the list, or `#` and a game id.
    public static func pick(_ text: String, from games: [LiveGame]) -> Int64? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("#") { return Int64(text.dropFirst()) }
        guard let number = Int(text), (1...games.count).contains(number) else { return nil }
        return games[number - 1].game
    }
}
