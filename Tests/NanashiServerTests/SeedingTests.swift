import Foundation
import NanashiProtocol
import NanashiStorage
import Testing

@testable import NanashiServer

@Test func seedingAddsExactlyTheRankedPlayersGamesAndBotsAsked() async throws {
    let file = try TemporaryDatabase()
    let summary = try BenchmarkSeed.seed(databaseAt: file.path, players: 300, games: 500, bots: 3)
    #expect(
        summary.players == 300 && summary.games == 500
            && summary.bots.map(\.name) == ["bot0001", "bot0002", "bot0003"])
    let storage = try SQLiteStorage(path: file.path)
    let board = try await storage.leaderboard(limit: 100, offset: 0)
    // Bots have no rated game yet, so only the seeded players are ranked.
    #expect(board.total == 300)
    #expect(board.entries.map(\.rating) == board.entries.map(\.rating).sorted(by: >))
    #expect(try await storage.leaderboard(limit: 100, offset: 250).entries.map(\.rank) == Array(251...300))
    let games = try await storage.pool.read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM game WHERE result IS NOT NULL")
    }
    let changes = try await storage.pool.read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rating_change")
    }
    #expect(games == 500 && changes == 1000)
    #expect(try await storage.unfinishedGames().isEmpty)

    let profile = try #require(try await storage.profile(name: "SEED000001"))
    #expect(profile.name == "seed000001" && profile.rank != nil && profile.games >= 1)
    #expect(profile.wins + profile.losses + profile.draws == profile.games)

    for bot in summary.bots {
        let token = try #require(bot.token)
        let digest = try #require(SessionToken.digest(of: token))
        #expect(try await storage.player(tokenDigest: digest, now: Date())?.name == bot.name)
    }
}

@Test func seedingTwiceWithTheSameNamesAddsNothing() async throws {
    let file = try TemporaryDatabase()
    _ = try BenchmarkSeed.seed(databaseAt: file.path, players: 10, games: 5, bots: 0)
    #expect(throws: (any Error).self) {
        try BenchmarkSeed.seed(databaseAt: file.path, players: 20, games: 5, bots: 0)
    }
    let storage = try SQLiteStorage(path: file.path)
    #expect(try await storage.leaderboard(limit: 1, offset: 0).total == 10)
}

@Test func seedingCountsAreCheckedBeforeAnythingIsOpened() {
    #expect(BenchmarkSeed.problem(players: 10, games: nil, bots: 2, writesAccounts: true) == nil)
    #expect(BenchmarkSeed.problem(players: 10, games: 0, bots: 0, writesAccounts: false) == nil)
    #expect(
        BenchmarkSeed.problem(players: 10, games: -1, bots: 0, writesAccounts: false)
            == "bad counts: --players, --games and --bots are 0 or more")
    #expect(
        BenchmarkSeed.problem(players: 0, games: nil, bots: 2, writesAccounts: false)
            == "--bots needs --accounts FILE to write their tokens to")
    #expect(
        BenchmarkSeed.problem(players: 0, games: nil, bots: 0, writesAccounts: true)
            == "nothing to seed: give --players or --bots")
}

@Test func theSeedCommandChecksSeedsAndWritesTheBotsTokens() throws {
    let file = try TemporaryDatabase()
    let accounts = file.path + ".bots"
    defer { try? FileManager.default.removeItem(atPath: accounts) }
    #expect(throws: BenchmarkSeed.Failure.self) {
        try BenchmarkSeed.run(databaseAt: file.path, players: 0, games: nil, bots: 2, accounts: nil)
    }
    let line = try BenchmarkSeed.run(
        databaseAt: file.path, players: 4, games: nil, bots: 2, accounts: accounts)
    #expect(line.hasPrefix("seeded 4 players, 8 games, 2 bots in "))
    #expect(try BotAccount.read(from: accounts).map(\.name) == ["bot0001", "bot0002"])
    let other = try TemporaryDatabase()
    do {
        _ = try BenchmarkSeed.run(
            databaseAt: other.path, players: 0, games: nil, bots: 1, accounts: "/nonexistent/dir/bots.txt")
        Issue.record("accounts written to a missing folder")
    } catch {
        #expect(error.description.hasPrefix("cannot write accounts to /nonexistent/dir/bots.txt: "))
    }
}
