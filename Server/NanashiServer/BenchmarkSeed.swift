import Foundation
import NanashiProtocol
import NanashiStorage

/// What a seeding run put into a database.
public struct SeedSummary: Sendable, Equatable {
    /// Rated players added.
    public var players: Int
    /// Finished games added between them.
    public var games: Int
    /// Bot accounts added, each with a session token to log in with (`auth`).
    public var bots: [BotAccount]

    /// The line `nanashi seed` prints: what was added, and in how long.
    public func line(took elapsed: Duration) -> String {
        let tenths = elapsed.wholeMilliseconds / 100
        return
            "seeded \(players) players, \(games) games, \(bots.count) bots in \(tenths / 10).\(tenths % 10) s"
    }
}

/// Fills a database with made-up players, finished games and bot accounts, for benchmarks.
///
/// Seeded accounts have no password (their stored hash matches none): players exist to be
/// ranked and looked up, bots log in with the tokens returned here.
public enum BenchmarkSeed {
    /// Adds `players` rated players named `<prefix>000001`..., `games` finished games between
    /// them and `bots` unrated accounts named `<botPrefix>0001`..., in one transaction.
    ///
    /// - Throws: if the database cannot be opened, or a name is already taken (then nothing is
    ///   added).
    public static func seed(
        databaseAt path: String, players: Int, games: Int, bots: Int, prefix: String = "seed",
        botPrefix: String = "bot"
    ) throws -> SeedSummary {
        let storage = try SQLiteStorage(path: path)
        let seeded = try storage.seed(
            players: players, games: games, bots: bots, prefix: prefix, botPrefix: botPrefix, now: Date()
        ) {
            let token = SessionToken.generate()
            return (token.text, token.digest)
        }
        return SeedSummary(players: seeded.players, games: seeded.games, bots: seeded.bots)
    }

    /// Why `nanashi seed` cannot run with these counts, or `nil` when it can: no count is below 0,
    /// bots have a file to write their tokens to, and there is something to add.
    public static func problem(players: Int, games: Int?, bots: Int, writesAccounts: Bool) -> String? {
        guard players >= 0, bots >= 0, (games ?? 0) >= 0 else {
            return "bad counts: --players, --games and --bots are 0 or more"
        }
        guard bots == 0 || writesAccounts else {
            return "--bots needs --accounts FILE to write their tokens to"
        }
        guard players + bots > 0 else { return "nothing to seed: give --players or --bots" }
        return nil
    }
}
