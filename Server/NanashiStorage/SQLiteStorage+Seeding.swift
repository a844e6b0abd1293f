import Foundation
import GRDB
import NanashiCore
import NanashiProtocol

extension SQLiteStorage {
    /// Bulk inserts through prepared statements in one write transaction: 100,000 players take
    /// seconds, where one transaction each would take minutes.
    /// `newToken`: a bot's session token, as the client gets it and as the database keeps it.
    package func seed(
        players: Int, games: Int, bots: Int, prefix: String, botPrefix: String, now: Date,
        newToken: () -> (text: String, digest: [UInt8])
    ) throws -> (players: Int, games: Int, bots: [BotAccount]) {
        var random = SystemRandomNumberGenerator()
        let nowSeconds = now.timeIntervalSince1970
        let day = 24 * 3600.0
        var credentials: [BotAccount] = []
        try pool.write { db in
            let firstID = (try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM player") ?? 0) + 1
            let insertPlayer = try db.makeStatement(
                sql: """
                    INSERT INTO player (name, name_key, password_hash, rating, rd, volatility, games, wins,
                                        losses, draws, rated_at, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            var ratings: [Double] = []
            ratings.reserveCapacity(players)
            let digits = max(6, String(players).count)
            for index in 0..<players {
                let name = prefix + Self.padded(index + 1, to: digits)
                let rating = min(max(Self.normal(mean: 1500, deviation: 300, using: &random), 100), 3000)
                ratings.append(rating)
                let played = Int.random(in: 1...400, using: &random)
                let draws = Int.random(in: 0...(played / 10), using: &random)
                let wins = Int.random(in: 0...(played - draws), using: &random)
                // The more games, the surer the rating: RD from about 350 down to about 45.
                let rd = max(45, 350 - Double(played) * 0.8 + Double.random(in: -20...20, using: &random))
                let lastRated = nowSeconds - Double.random(in: 0...(90 * day), using: &random)
                try insertPlayer.execute(arguments: [
                    name, name.lowercased(), "seeded", rating, rd, 0.06, played, wins, played - draws - wins,
                    draws, lastRated, lastRated - 365 * day,
                ])
            }
            let insertGame = try db.makeStatement(
                sql: """
                    INSERT INTO game (x_id, o_id, initial, increment, started_at, ended_at, result, reason)
                    VALUES (?, ?, 300, 3, ?, ?, ?, ?)
                    """)
            let insertChange = try db.makeStatement(
                sql: """
                    INSERT INTO rating_change (game_id, player_id, rating_before, rd_before, volatility_before,
                                               rating_after, rd_after, volatility_after)
                    VALUES (?, ?, ?, 80, 0.06, ?, 79, 0.06)
                    """)
            // The ends of a server's games (not a match's between engines), in their first order.
            let reasons: [Outcome.Reason] = [
                .noPieces, .lockedBoard, .fiftyMoveRule, .resignation, .timeout, .abandonment, .aborted,
            ]
            for _ in 0..<(players >= 2 ? games : 0) {
                let x = Int.random(in: 0..<players, using: &random)
                var o = Int.random(in: 0..<(players - 1), using: &random)
                if o >= x { o += 1 }
                let winner = ([Side.x, .o, nil] as [Side?]).randomElement(using: &random)!
                let outcome = Outcome(
                    winner: winner,
                    reason: winner == nil ? .fiftyMoveRule : reasons.randomElement(using: &random)!)
                let ended = nowSeconds - Double.random(in: 0...(30 * day), using: &random)
                try insertGame.execute(arguments: [
                    firstID + Int64(x), firstID + Int64(o), ended - 600, ended, outcome.storedResult,
                    outcome.reason.rawValue,
                ])
                let gameID = db.lastInsertedRowID
                let change = winner == nil ? 0.0 : Double.random(in: 4...16, using: &random)
                for (player, won) in [(x, winner == .x), (o, winner == .o)] {
                    let before = ratings[player]
                    let after = winner == nil ? before : (won ? before + change : before - change)
                    try insertChange.execute(arguments: [gameID, firstID + Int64(player), before, after])
                }
            }
            let insertToken = try db.makeStatement(
                sql: "INSERT INTO token (digest, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
            for index in 0..<bots {
                let name = botPrefix + Self.padded(index + 1, to: 4)
                var bot = PlayerRow(
                    id: nil, name: name, nameKey: name.lowercased(), passwordHash: "seeded",
                    rating: Rating.initial.rating, rd: Rating.initial.deviation,
                    volatility: Rating.initial.volatility, games: 0, wins: 0, losses: 0, draws: 0,
                    ratedAt: nil, createdAt: nowSeconds)
                try bot.insert(db)
                let token = newToken()
                try insertToken.execute(arguments: [
                    Data(token.digest), bot.id!, nowSeconds, nowSeconds + 365 * day,
                ])
                credentials.append(BotAccount(name: name, token: token.text))
            }
        }
        return (players, players >= 2 ? games : 0, credentials)
    }

    private static func padded(_ number: Int, to digits: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A normally distributed value (Box-Muller).
    private static func normal(
        mean: Double, deviation: Double, using random: inout some RandomNumberGenerator
    ) -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
        let v = Double.random(in: 0..<1, using: &random)
        return mean + deviation * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
