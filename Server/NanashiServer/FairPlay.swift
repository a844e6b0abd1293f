import Foundation
import NanashiCore
import NanashiProtocol
import NanashiStorage

/// Who plays far more like the engine than everyone else: each player's accuracy over their
/// latest analysed rated games, set against the other players'. A figure for a person to review,
/// never a verdict: a strong player may stand out too.
package enum FairPlay {
    /// One player's accuracy over their latest analysed rated games.
    package struct Player: Hashable, Sendable {
        package var id: Int64
        package var name: String
        /// The analysed rated games counted.
        package var games: Int
        /// Their moves in those games, together.
        package var accuracy: Accuracy
    }

    /// A player and how far their accuracy stands above the others'.
    package struct Standing: Hashable, Sendable {
        package var player: Player
        /// The other players' mean accuracy, in percent.
        package var othersMean: Double
        /// The other players' standard deviation, in percentage points (at least
        /// `Settings.smallestSpread`).
        package var othersSpread: Double
        /// `(player's percent - othersMean) / othersSpread`.
        package var z: Double
    }

    /// What `suspects` counts, and from where a player stands out.
    package struct Settings: Hashable, Sendable {
        /// Each player's latest analysed rated games counted.
        package var lastGames = 20
        /// Players with fewer analysed rated games are neither judged nor counted in the population.
        package var minimumGames = 5
        /// A player this many standard deviations above the others' mean stands out.
        package var zThreshold = 3.0
        /// The spread below which the others' standard deviation is not trusted: a population
        /// of players alike would make any small difference look large.
        package var smallestSpread = 5.0
        /// At least this many other players are needed to judge one.
        package var minimumOthers = 3

        package init() {}
    }

    /// Each player's accuracy over their latest `lastGames` analysed games, from `analyses`
    /// newest first (as `FairPlayStorage.ratedAnalyses` returns them), by id.
    package static func players(_ analyses: [RatedAnalysis], lastGames: Int) -> [Int64: Player] {
        var players: [Int64: Player] = [:]
        for rated in analyses {
            let sides = [(Side.x, rated.game.xID, rated.game.xName), (.o, rated.game.oID, rated.game.oName)]
            for (side, id, name) in sides {
                var player = players[id] ?? Player(id: id, name: name, games: 0, accuracy: Accuracy())
                guard player.games < lastGames else { continue }
                player.games += 1
                player.accuracy = player.accuracy + rated.analysis.accuracy(of: side)
                players[id] = player
            }
        }
        return players
    }

    /// Every player with at least `minimumGames` games, set against the others with as many,
    /// highest `z` first; players with too few others to be set against are left out.
    package static func standings(_ players: [Int64: Player], settings: Settings) -> [Standing] {
        let counted = players.values.filter { $0.games >= settings.minimumGames && $0.accuracy.moves > 0 }
        guard counted.count > settings.minimumOthers else { return [] }
        let percents = counted.map(\.accuracy.percent)
        let (sum, squares) = (percents.reduce(0, +), percents.reduce(0) { $0 + $1 * $1 })
        let others = Double(counted.count - 1)
        return counted.map { player in
            // Leaving the player out: one far from the rest does not pull the mean and the
            // spread they are measured by.
            let percent = player.accuracy.percent
            let mean = (sum - percent) / others
            let variance = max((squares - percent * percent) / others - mean * mean, 0)
            let spread = max(variance.squareRoot(), settings.smallestSpread)
            return Standing(
                player: player, othersMean: mean, othersSpread: spread, z: (percent - mean) / spread)
        }.sorted { ($0.z, $1.player.name) > ($1.z, $0.player.name) }
    }

    /// The players who stand out: `z` at least `settings.zThreshold`, highest first.
    package static func suspects(_ analyses: [RatedAnalysis], settings: Settings) -> [Standing] {
        standings(players(analyses, lastGames: settings.lastGames), settings: settings)
            .filter { $0.z >= settings.zThreshold }
    }

    /// The next rated game to analyse in the background, out of `unanalysed` (newest first):
    /// the newest game of the player with the highest accuracy so far among those with at least
    /// `minimumGames` analysed games; failing any, the newest game.
    package static func nextToAnalyse(
        _ unanalysed: [RatedGame], players: [Int64: Player], minimumGames: Int
    ) -> RatedGame? {
        func percent(_ id: Int64) -> Double {
            guard let player = players[id], player.games >= minimumGames else { return -1 }
            return player.accuracy.percent
        }
        var best: (game: RatedGame, percent: Double)?
        for game in unanalysed {
            let highest = max(percent(game.xID), percent(game.oID))
            if best == nil || highest > best!.percent { best = (game, highest) }
        }
        return best?.game
    }
}
