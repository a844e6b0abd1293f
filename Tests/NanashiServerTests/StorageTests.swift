import Foundation
import GRDB
import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer

@Test func playersAreUniqueIgnoringCase() throws {
    let file = try TemporaryDatabase()
    let storage = try Storage(path: file.path)
    let ann = try storage.createPlayer(name: "Ann", passwordHash: "h", now: Date())
    #expect(ann.id != nil && ann.rating == 1500 && ann.rd == 350 && ann.volatility == 0.06)
    #expect(throws: StorageError.nameTaken) {
        try storage.createPlayer(name: "aNN", passwordHash: "h", now: Date())
    }
    #expect(try storage.player(named: "ANN")?.name == "Ann")
    #expect(try storage.player(named: "bob") == nil)
}

@Test func tokensWorkUntilTheyExpireOrAreRemoved() throws {
    let file = try TemporaryDatabase()
    let storage = try Storage(path: file.path)
    let ann = try storage.createPlayer(name: "ann", passwordHash: "h", now: Date())
    let token = SessionToken.generate()
    let now = Date()
    try storage.addToken(
        digest: token.digest, playerID: ann.id!, now: now, expires: now.addingTimeInterval(60))
    #expect(try storage.player(tokenDigest: token.digest, now: now)?.id == ann.id)
    #expect(try storage.player(tokenDigest: token.digest, now: now.addingTimeInterval(61)) == nil)
    #expect(try storage.player(tokenDigest: SessionToken.generate().digest, now: now) == nil)
    try storage.removeToken(digest: token.digest)
    #expect(try storage.player(tokenDigest: token.digest, now: now) == nil)
}

@Test func aFinishedGameRatesBothPlayersAndFillsTheStandings() throws {
    let file = try TemporaryDatabase()
    let storage = try Storage(path: file.path)
    let ann = try storage.createPlayer(name: "ann", passwordHash: "h", now: Date())
    let bob = try storage.createPlayer(name: "bob", passwordHash: "h", now: Date())
    let id = try storage.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: Date())
    try storage.recordMove(
        gameID: id, ply: 1, move: .clone(to: Square("f2")!), clocks: Clocks(x: 1, o: 2), now: Date())
    #expect(throws: (any Error).self) {
        try storage.recordMove(gameID: id, ply: 1, move: .pass, clocks: Clocks(x: 1, o: 2), now: Date())
    }
    #expect(try storage.unfinishedGames().map(\.moves.count) == [1])
    #expect(try storage.seeker(id: ann.id!)?.colourBalance == 1)
    #expect(try storage.seeker(id: bob.id!)?.colourBalance == -1)
    #expect(try storage.seeker(id: 999) == nil)

    let rated = try #require(
        try storage.finishGame(id: id, outcome: Outcome(winner: .x, reason: .resignation), now: Date()) {
            x, o in
            (
                Glicko2().rated(x.glicko, results: [(o.glicko, 1)]),
                Glicko2().rated(o.glicko, results: [(x.glicko, 0)])
            )
        })
    #expect(rated.x.before == .initial && rated.x.after.rating > 1500 && rated.o.after.rating < 1500)
    #expect(throws: StorageError.noSuchGame) {
        try storage.finishGame(id: id, outcome: Outcome(winner: .o, reason: .resignation), now: Date()) {
            x, o in
            (x.glicko, o.glicko)
        }
    }
    #expect(try storage.unfinishedGames().isEmpty)

    let board = try storage.leaderboard(limit: 20, offset: 0)
    let annRating = rounded(rated.x.after.rating)
    let bobRating = rounded(rated.o.after.rating)
    #expect(board.total == 2)
    #expect(
        board.entries == [
            LeaderboardEntry(
                rank: 1, name: "ann", rating: annRating, rd: rounded(rated.x.after.deviation), games: 1,
                wins: 1,
                losses: 0, draws: 0, provisional: true),
            LeaderboardEntry(
                rank: 2, name: "bob", rating: bobRating, rd: rounded(rated.o.after.deviation), games: 1,
                wins: 0,
                losses: 1, draws: 0, provisional: true),
        ])
    #expect(try storage.leaderboard(limit: 1, offset: 1).entries.map(\.rank) == [2])

    let profile = try #require(try storage.profile(name: "BOB"))
    #expect(profile.rank == 2 && profile.losses == 1)
    #expect(
        profile.recent == [
            RecentGame(
                game: id, opponent: "ann", color: .o, outcome: .resignation(by: .o),
                ratingChange: bobRating - 1500)
        ])

    // The operator's read-only view sees the same.
    #expect(try Storage.leaderboard(databaseAt: file.path, limit: 20, offset: 0) == board)
}

@Test func aNewPlayerHasNoRank() throws {
    let file = try TemporaryDatabase()
    let storage = try Storage(path: file.path)
    _ = try storage.createPlayer(name: "cy", passwordHash: "h", now: Date())
    let profile = try #require(try storage.profile(name: "cy"))
    #expect(
        profile
            == Profile(
                name: "cy", rating: 1500, rd: 350, rank: nil, games: 0, wins: 0, losses: 0, draws: 0,
                recent: []))
    #expect(try storage.profile(name: "nobody") == nil)
    #expect(try storage.leaderboard(limit: 20, offset: 0) == Leaderboard(total: 0, entries: []))
}

@Test func aProfileReadsTheLatestGamesOffTheIndexes() throws {
    let database = try TemporaryDatabase()
    let storage = try Storage(path: database.path)
    let plan = try storage.pool.read { db in
        try Row.fetchAll(
            db, sql: "EXPLAIN QUERY PLAN " + Storage.recentGamesQuery, arguments: [1, 10, 1, 10, 1, 10]
        ).map { $0["detail"] as String }
    }
    #expect(plan.contains { $0.contains("USING INDEX game_x_ended") }, "\(plan)")
    #expect(plan.contains { $0.contains("USING INDEX game_o_ended") }, "\(plan)")
    // Only the merged few are sorted: neither side's games are.
    #expect(plan.filter { $0.contains("TEMP B-TREE") }.count <= 1, "\(plan)")
}
