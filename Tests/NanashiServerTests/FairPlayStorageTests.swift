import Foundation
import NanashiCore
import NanashiProtocol
import Testing

@testable import NanashiServer
@testable import NanashiStorage

// What fair play reads in storage, and `nanashi admin suspects`' report, on both databases.

/// A finished game of `x` against `o`, with `moves`, ended at `ended` (seconds since 1970).
func finishedGame(
    _ storage: any Storage, _ x: PlayerRow, _ o: PlayerRow, moves: [String], ended: Double,
    casual: Bool = false
) async throws -> Int64 {
    let now = Date(timeIntervalSince1970: ended)
    let id = try await storage.createGame(
        xID: x.id!, oID: o.id!, control: .standard, now: now, casual: casual)
    for (index, move) in moves.enumerated() {
        try await storage.recordMove(
            gameID: id, ply: index + 1, move: try Move(notation: move), clocks: Clocks(x: 60, o: 60), now: now
        )
    }
    _ = try await storage.finishGame(
        id: id, outcome: Outcome(winner: .x, reason: .resignation), rated: !casual, now: now, rate: xWins)
    return id
}

@Suite struct FairPlayStorageTests {
    /// Only rated games between people count, newest first: not casual games, games against
    /// the engine or games in progress; a game leaves the unanalysed once analysed.
    @Test(arguments: StorageBackend.allCases)
    func ratedGamesAndTheirAnalysesAreReadNewestFirst(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, bob) = try await storage.createPlayers("ann", "bob")
        let first = try await finishedGame(storage, ann, bob, moves: ["f2", "b2"], ended: 1_000)
        let casual = try await finishedGame(storage, ann, bob, moves: ["f2"], ended: 2_000, casual: true)
        let second = try await finishedGame(storage, bob, ann, moves: ["f2"], ended: 3_000)
        let engine = try await storage.createEngineGame(
            playerID: ann.id!, side: .x, level: 1, control: .standard, now: Date(timeIntervalSince1970: 4_000)
        )
        _ = try await storage.finishGame(
            id: engine.game, outcome: Outcome(winner: .x, reason: .resignation), rated: false,
            now: Date(timeIntervalSince1970: 4_000), rate: xWins)
        _ = try await storage.createGame(
            xID: ann.id!, oID: bob.id!, control: .standard, now: Date(timeIntervalSince1970: 5_000))
        let (annID, bobID) = (ann.id!, bob.id!)
        #expect(
            try await storage.unanalysedRatedGames(limit: 10) == [
                RatedGame(game: second, xID: bobID, xName: "bob", oID: annID, oName: "ann"),
                RatedGame(game: first, xID: annID, xName: "ann", oID: bobID, oName: "bob"),
            ])
        #expect(try await storage.unanalysedRatedGames(limit: 1).map(\.game) == [second])
        #expect(try await storage.ratedAnalyses(limit: 10).isEmpty)
        for game in [first, casual, engine.game] {
            try await storage.storeAnalysis(
                GameAnalysis(game: game, depth: 6, evals: [0, -20, 300], mistakes: []), now: Date())
        }
        #expect(try await storage.unanalysedRatedGames(limit: 10).map(\.game) == [second])
        #expect(
            try await storage.ratedAnalyses(limit: 10) == [
                RatedAnalysis(
                    game: RatedGame(game: first, xID: annID, xName: "ann", oID: bobID, oName: "bob"),
                    analysis: GameAnalysis(game: first, depth: 6, evals: [0, -20, 300], mistakes: []))
            ])
        await storage.close()
    }

    /// The report names who stands out, with the figures; bad settings change nothing and say why.
    @Test(arguments: StorageBackend.allCases)
    func theSuspectsReportNamesWhoStandsOut(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let names = ["bot", "ann", "bob", "cat", "dan"]
        var players: [PlayerRow] = []
        for name in names {
            players.append(
                try await storage.createPlayer(name: name, passwordHash: "h", now: Date(), token: nil))
        }
        // bot (x in four games) and its opponents lose nothing there; among the others, x loses
        // 100 (not accurate) and o nothing: bot 4 of 4, each other 2 of 3 (66.7%, spread 0: 5).
        var ended = 1_000.0
        for (x, o) in [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (2, 3), (3, 4), (4, 1)] {
            ended += 1
            let game = try await finishedGame(
                storage, players[x], players[o], moves: ["f2", "b2"], ended: ended)
            let evals = x == 0 ? [0, 0, 0] : [0, -100, -100]
            try await storage.storeAnalysis(
                GameAnalysis(game: game, depth: 6, evals: evals, mistakes: []), now: Date())
        }
        let moderation = Moderation(storage: storage, moderator: "")
        var settings = FairPlay.Settings()
        settings.minimumGames = 2
        let report = try await moderation.suspects(settings, all: false)
        let words = report.map { $0.split(separator: " ").map(String.init) }
        #expect(report.count == 5, "\(report)")
        #expect(
            report.first
                == "8 analysed rated games; 5 players with at least 2, each counted over their latest 20")
        #expect(words.dropFirst(2).first == ["player", "games", "moves", "accurate", "loss", "others", "z"])
        #expect(words.dropFirst(3).first == ["bot", "4", "4", "100.0%", "0.00", "66.7%", "±", "5.0", "+6.7"])
        #expect(
            report.last
                == "1 player stands out (z at least 3.0): review their games before any 'nanashi admin mark NAME --reason WHY'"
        )
        // Everyone, with --all: the others stand below their others' mean.
        let all = try await moderation.suspects(settings, all: true)
        #expect(all.count == 9 && all[4].hasPrefix("ann ") && all[4].hasSuffix("-0.6"), "\(all)")
        settings.zThreshold = 7
        #expect(
            try await moderation.suspects(settings, all: false).last
                == "no player stands out (z at least 7.0)")
        var bad = settings
        bad.minimumGames = 30
        var refusal: (any Error)?
        do { _ = try await moderation.suspects(bad, all: false) } catch { refusal = error }
        #expect(
            refusal as? ModerationError
                == ModerationError("--games is 1 or more, and --min-games 1 to --games"))
        await storage.close()
    }
}
