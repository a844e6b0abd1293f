import Foundation
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

// What every `Storage` does, run against both: SQLite, and PostgreSQL (a throwaway cluster, or
// the one NANASHI_TEST_POSTGRES names; skipped, saying why, where there is none).

@Suite struct StorageContractTests {
    @Test(arguments: StorageBackend.allCases)
    func playersAreUniqueIgnoringCase(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let ann = try await storage.createPlayer(name: "Ann", passwordHash: "h", now: Date(), token: nil)
        #expect(ann.id != nil && ann.rating == 1500 && ann.rd == 350 && ann.volatility == 0.06)
        await #expect(throws: StorageError.nameTaken) {
            try await storage.createPlayer(name: "aNN", passwordHash: "h", now: Date(), token: nil)
        }
        #expect(try await storage.player(named: "ANN") == ann)
        #expect(try await storage.player(id: ann.id!) == ann)
        #expect(try await storage.player(named: "bob") == nil)
        #expect(try await storage.player(id: 999) == nil)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func tokensWorkUntilTheyExpireOrAreRemoved(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let now = Date()
        let first = SessionToken.generate()
        let ann = try await storage.createPlayer(
            name: "ann", passwordHash: "h", now: now, token: (first.digest, now.addingTimeInterval(30)))
        #expect(try await storage.player(tokenDigest: first.digest, now: now)?.id == ann.id)
        let token = SessionToken.generate()
        try await storage.addToken(
            digest: token.digest, playerID: ann.id!, now: now, expires: now.addingTimeInterval(60))
        #expect(try await storage.player(tokenDigest: token.digest, now: now)?.id == ann.id)
        #expect(try await storage.player(tokenDigest: token.digest, now: now.addingTimeInterval(61)) == nil)
        #expect(try await storage.player(tokenDigest: SessionToken.generate().digest, now: now) == nil)
        try await storage.removeToken(digest: token.digest)
        #expect(try await storage.player(tokenDigest: token.digest, now: now) == nil)
        #expect(try await storage.player(tokenDigest: first.digest, now: now)?.id == ann.id)
        // Every token of one player at once (a logout everywhere); another player's stays.
        let bob = try await storage.createPlayer(
            name: "bob", passwordHash: "h", now: now, token: (token.digest, now.addingTimeInterval(30)))
        let second = SessionToken.generate()
        try await storage.addToken(
            digest: second.digest, playerID: ann.id!, now: now, expires: now.addingTimeInterval(60))
        try await storage.removeTokens(playerID: ann.id!)
        #expect(try await storage.player(tokenDigest: first.digest, now: now) == nil)
        #expect(try await storage.player(tokenDigest: second.digest, now: now) == nil)
        #expect(try await storage.player(tokenDigest: token.digest, now: now)?.id == bob.id)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func aFinishedGameRatesBothPlayersAndFillsTheStandings(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, bob) = try await storage.createPlayers("ann", "bob")
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        let id = try await storage.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: started)
        try await storage.recordMove(
            gameID: id, ply: 1, move: .clone(to: Square("f2")!), clocks: Clocks(x: 1, o: 2), now: started)
        await #expect(throws: (any Error).self) {
            try await storage.recordMove(
                gameID: id, ply: 1, move: .pass, clocks: Clocks(x: 1, o: 2), now: Date())
        }
        try await storage.recordMove(
            gameID: id, ply: 2, move: Move(notation: "a1b3"), clocks: Clocks(x: 1, o: 4), now: started)
        let unfinished = try await storage.unfinishedGames()
        #expect(unfinished.count == 1)
        #expect(unfinished.first?.game.id == id && unfinished.first?.x == ann && unfinished.first?.o == bob)
        #expect(unfinished.first?.game.initial == TimeControl.standard.initial)
        #expect(unfinished.first?.moves.map(\.notation) == ["f2", "a1b3"])
        #expect(unfinished.first?.moves.map(\.oClock) == [2, 4])
        #expect(try await storage.seeker(id: ann.id!)?.colourBalance == 1)
        #expect(try await storage.seeker(id: bob.id!)?.colourBalance == -1)
        #expect(try await storage.seeker(id: 999) == nil)
        #expect(try await storage.finishedGame(id: id) == nil)

        let ended = started.addingTimeInterval(90)
        let rated = try #require(
            try await storage.finishGame(
                id: id, outcome: Outcome(winner: .x, reason: .resignation), now: ended, rate: xWins))
        #expect(rated.x.before == .initial && rated.x.after.rating > 1500 && rated.o.after.rating < 1500)
        await #expect(throws: StorageError.noSuchGame) {
            try await storage.finishGame(
                id: id, outcome: Outcome(winner: .o, reason: .resignation), now: Date()
            ) {
                x, o in (x.glicko, o.glicko)
            }
        }
        await #expect(throws: StorageError.noSuchGame) {
            try await storage.finishGame(
                id: 999, outcome: Outcome(winner: .o, reason: .resignation), now: Date()
            ) {
                x, o in (x.glicko, o.glicko)
            }
        }
        #expect(try await storage.unfinishedGames().isEmpty)

        let board = try await storage.leaderboard(limit: 20, offset: 0)
        let annRating = rounded(rated.x.after.rating)
        let bobRating = rounded(rated.o.after.rating)
        #expect(
            board
                == Leaderboard(
                    total: 2,
                    entries: [
                        LeaderboardEntry(
                            rank: 1, name: "ann", rating: annRating, rd: rounded(rated.x.after.deviation),
                            games: 1,
                            wins: 1, losses: 0, draws: 0, provisional: true),
                        LeaderboardEntry(
                            rank: 2, name: "bob", rating: bobRating, rd: rounded(rated.o.after.deviation),
                            games: 1,
                            wins: 0, losses: 1, draws: 0, provisional: true),
                    ]))
        #expect(try await storage.leaderboard(limit: 1, offset: 1).entries.map(\.rank) == [2])
        #expect(try await storage.leaderboard(limit: 1, offset: 2).entries.isEmpty)

        let profile = try #require(try await storage.profile(name: "BOB"))
        #expect(profile.rank == 2 && profile.losses == 1 && profile.rating == bobRating)
        #expect(
            profile.recent == [
                RecentGame(
                    game: id, opponent: "ann", color: .o, outcome: .resignation(by: .o),
                    ratingChange: bobRating - 1500)
            ])

        // The archive: the game with its players' ratings before it, and its moves.
        let summary = FinishedGame(
            id: id, x: GamePlayer(name: "ann", rating: 1500), o: GamePlayer(name: "bob", rating: 1500),
            control: .standard, outcome: .resignation(by: .o), plies: 2, started: started, ended: ended)
        let page = try #require(try await storage.finishedGames(name: "ANN", before: nil, limit: 10))
        #expect(page.name == "ann" && page.games.map(\.archived) == [summary.archived])
        #expect(try await storage.finishedGames(name: "ann", before: id, limit: 10)?.games.isEmpty == true)
        #expect(try await storage.finishedGames(name: "nobody", before: nil, limit: 10) == nil)
        let game = try #require(try await storage.finishedGame(id: id))
        #expect(game.archived == summary.archived && game.moves == ["f2", "a1b3"])
        #expect(game.started == started && game.ended == ended && game.control == .standard)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func anUnratedGameChangesNoRating(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, bob) = try await storage.createPlayers("ann", "bob")
        let id = try await storage.createGame(xID: ann.id!, oID: bob.id!, control: .standard, now: Date())
        let rated = try await storage.finishGame(
            id: id, outcome: Outcome(winner: nil, reason: .aborted), rated: false, now: Date(), rate: xWins)
        #expect(rated == nil)
        #expect(try await storage.player(id: ann.id!) == ann)
        #expect(try await storage.leaderboard(limit: 10, offset: 0) == Leaderboard(total: 0, entries: []))
        #expect(try await storage.finishedGame(id: id)?.outcome == Outcome(winner: nil, reason: .aborted))
        await storage.close()
    }

    /// Games against the engine: one player per level, made once; never rated; listed apart in
    /// the profile; resumed with their level and start; and an analysis stored once.
    @Test(arguments: StorageBackend.allCases)
    func engineGamesAndAnalysesRoundTrip(_ backend: StorageBackend) async throws {
        let opened = try await backend.open()
        let storage = opened.storage
        let (ann, bob) = try await storage.createPlayers("ann", "bob")
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        let first = try await storage.createEngineGame(
            playerID: ann.id!, side: .x, level: 3, control: .standard, now: started)
        #expect(first.engine.name == "AI level 3" && first.engine.id != nil && first.engine.games == 0)
        // A second server makes no second player for the same level.
        let secondServer = try await opened.another()
        let second = try await secondServer.createEngineGame(
            playerID: ann.id!, side: .o, level: 3, control: .standard, now: started)
        await secondServer.close()
        #expect(second.engine == first.engine && second.game != first.game)
        // From a layout: its start is kept, as a challenge's is.
        let cross = Layout.named("cross")!.fen
        let other = try await storage.createEngineGame(
            playerID: bob.id!, side: .x, level: 7, control: .standard, now: started, start: cross)
        #expect(other.engine.name == "AI level 7" && other.engine.id != first.engine.id)
        #expect(
            try await storage.unfinishedEngineLevels() == [first.game: 3, second.game: 3, other.game: 7])
        let unfinished = try await storage.unfinishedGames()
        #expect(
            unfinished.first { $0.game.id == second.game }.map { [$0.x.name, $0.o.name] } == [
                "AI level 3", "ann",
            ])
        #expect(unfinished.first { $0.game.id == other.game }?.game.startFEN == cross)
        #expect(unfinished.first { $0.game.id == second.game }.map { $0.game.startFEN == nil } == true)

        try await storage.recordMove(
            gameID: first.game, ply: 1, move: .clone(to: Square("f2")!), clocks: Clocks(x: 1, o: 2),
            now: started)
        let rated = try await storage.finishGame(
            id: first.game, outcome: Outcome(winner: .x, reason: .resignation), rated: false,
            now: started.addingTimeInterval(60), rate: xWins)
        #expect(rated == nil)
        #expect(try await storage.unfinishedEngineLevels() == [second.game: 3, other.game: 7])
        let people = try await storage.createGame(
            xID: bob.id!, oID: ann.id!, control: .standard, now: started)
        _ = try await storage.finishGame(
            id: people, outcome: Outcome(winner: .x, reason: .resignation),
            now: started.addingTimeInterval(120),
            rate: xWins)
        let profile = try #require(try await storage.profile(name: "ann"))
        #expect(profile.games == 1 && profile.losses == 1)
        #expect(profile.recent.map(\.game) == [people])
        #expect(
            profile.computer == [
                RecentGame(
                    game: first.game, opponent: "AI level 3", color: .x,
                    outcome: Outcome(winner: .x, reason: .resignation), ratingChange: 0)
            ])
        #expect(try await storage.player(id: first.engine.id!) == first.engine)

        #expect(try await storage.analysis(gameID: first.game) == nil)
        let analysis = GameAnalysis(
            game: first.game, depth: 4, evals: [0, 120, -10_000],
            mistakes: [.init(ply: 2, played: "a1b3", best: "g7f6", loss: 350)])
        try await storage.storeAnalysis(analysis, now: started)
        #expect(try await storage.analysis(gameID: first.game) == analysis)
        // A second analysis of the same game is ignored.
        try await storage.storeAnalysis(
            GameAnalysis(game: first.game, depth: 9, evals: [], mistakes: []), now: started)
        #expect(try await storage.analysis(gameID: first.game) == analysis)
        #expect(try await storage.analysis(gameID: people) == nil)
        await storage.close()
    }

    @Test(arguments: StorageBackend.allCases)
    func aNewPlayerHasNoRank(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        _ = try await storage.createPlayer(name: "cy", passwordHash: "h", now: Date(), token: nil)
        #expect(
            try await storage.profile(name: "cy")
                == Profile(
                    name: "cy", rating: 1500, rd: 350, rank: nil, games: 0, wins: 0, losses: 0, draws: 0,
                    recent: []))
        #expect(try await storage.profile(name: "nobody") == nil)
        // A name no one can have (`/player/a%00b`): nobody, not a failure.
        #expect(try await storage.profile(name: "c\0y") == nil)
        #expect(try await storage.finishedGames(name: "c\0y", before: nil, limit: 10) == nil)
        #expect(try await storage.leaderboard(limit: 20, offset: 0) == Leaderboard(total: 0, entries: []))
        await storage.close()
    }

    /// Ranks and pages, read through the standing buckets, agree with sorting every player.
    @Test(arguments: StorageBackend.allCases)
    func ranksAndPagesAgreeWithASort(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        var players: [PlayerRow] = []
        for index in 0..<12 {
            players.append(
                try await storage.createPlayer(
                    name: "p\(index)xx", passwordHash: "h", now: Date(), token: nil))
        }
        var random = SeededGenerator(seed: 7)
        for round in 0..<30 {
            let x = Int.random(in: 0..<11, using: &random)
            let o = Int.random(in: (x + 1)..<12, using: &random)
            let game = try await storage.createGame(
                xID: players[x].id!, oID: players[o].id!, control: .standard, now: Date())
            let winner: Side? = round % 3 == 0 ? nil : .x
            _ = try await storage.finishGame(
                id: game,
                outcome: Outcome(winner: winner, reason: winner == nil ? .fiftyMoveRule : .resignation),
                now: Date()
            ) { a, b in
                let score = winner == nil ? 0.5 : 1
                return (
                    Glicko2().rated(a.glicko, results: [(b.glicko, score)]),
                    Glicko2().rated(b.glicko, results: [(a.glicko, 1 - score)])
                )
            }
        }
        var stored: [PlayerRow] = []
        for player in players { stored.append(try #require(try await storage.player(id: player.id!))) }
        let expected = stored.filter { $0.games > 0 }.sorted {
            ($0.rating, $1.nameKey) > ($1.rating, $0.nameKey)
        }.map(\.name)
        let whole = try await storage.leaderboard(limit: 100, offset: 0)
        #expect(whole.total == expected.count && whole.entries.map(\.name) == expected)
        for offset in [1, 3, expected.count - 2] {
            #expect(
                try await storage.leaderboard(limit: 2, offset: offset).entries.map(\.name)
                    == Array(expected[offset..<min(offset + 2, expected.count)]))
        }
        for (index, name) in expected.enumerated() {
            #expect(try await storage.profile(name: name)?.rank == index + 1)
        }
        await storage.close()
    }

    /// Two servers on one database: what one stores, the other reads at once.
    @Test(arguments: StorageBackend.allCases)
    func twoServersOnOneDatabaseShareEverything(_ backend: StorageBackend) async throws {
        let opened = try await backend.open()
        let other = try await opened.another()
        let token = SessionToken.generate()
        let ann = try await opened.storage.createPlayer(
            name: "ann", passwordHash: "h", now: Date(), token: (token.digest, Date().addingTimeInterval(60)))
        #expect(try await other.player(tokenDigest: token.digest, now: Date()) == ann)
        await #expect(throws: StorageError.nameTaken) {
            try await other.createPlayer(name: "ANN", passwordHash: "h", now: Date(), token: nil)
        }
        await other.close()
        await opened.storage.close()
    }
}
