import Foundation
import NanashiCore
import NanashiProtocol
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

// The v8 migration on both backends: a game keeps the start it was made from, and a player's
// refusal of challenges is stored.

@Suite struct StorageStartTests {
    /// A game from a layout reads back with its start, unfinished and finished; one from the
    /// standard start stores none.
    @Test(arguments: StorageBackend.allCases)
    func aGameKeepsItsStart(_ backend: StorageBackend) async throws {
        let storage = try await backend.open().storage
        let (ann, bob) = try await storage.createPlayers("ann", "bob")
        let cross = try #require(Layout.named("cross"))
        let fromCross = try await storage.createGame(
            xID: ann.id!, oID: bob.id!, control: .standard, now: Date(), casual: false, start: cross.fen)
        let standard = try await storage.createGame(
            xID: bob.id!, oID: ann.id!, control: .standard, now: Date())
        let unfinished = try await storage.unfinishedGames()
        #expect(unfinished.map(\.game.startFEN) == [cross.fen, nil])
        #expect(try unfinished.map { try $0.game.startPosition() } == [cross.position, .start])
        try await storage.recordMove(
            gameID: fromCross, ply: 1, move: .clone(to: Square("b6")!), clocks: Clocks(x: 1, o: 2),
            now: Date())
        for id in [fromCross, standard] {
            _ = try await storage.finishGame(
                id: id, outcome: Outcome(winner: .o, reason: .resignation), rated: false, now: Date(),
                rate: { x, o in (x.glicko, o.glicko) })
        }
        let finished = try #require(try await storage.finishedGame(id: fromCross))
        #expect(finished.start == cross.fen && finished.moves == ["b6"])
        #expect(try finished.startPosition() == cross.position)
        let pgn = try finished.pgn()
        #expect(pgn.contains("[FEN \"x5o/3-3/7/1-3-1/7/3-3/o5x x 0 1\"]\n"), "\(pgn)")
        #expect(pgn.contains("[SetUp \"1\"]\n") && pgn.hasSuffix("\n1. b6 0-1\n"), "\(pgn)")
        let plain = try #require(try await storage.finishedGame(id: standard))
        let plainPGN = try plain.pgn()
        #expect(plain.start == nil && !plainPGN.contains("SetUp"))
        await storage.close()
    }

    /// A game against the engine names its level and gives its player no Elo: the engine's
    /// rating is the server's unrated 1500, not its strength.
    @Test func theEnginesPlayerHasNoEloInAPGN() throws {
        let game = FinishedGame(
            id: 5, x: GamePlayer(name: "ann", rating: 1612), o: GamePlayer(name: "AI level 3", rating: 1500),
            control: .standard, outcome: Outcome(winner: .o, reason: .resignation), plies: 1,
            started: Date(timeIntervalSince1970: 0), ended: Date(timeIntervalSince1970: 60), moves: ["b6"])
        let pgn = try game.pgn()
        #expect(pgn.contains("[Black \"AI level 3\"]\n") && pgn.contains("[WhiteElo \"1612\"]\n"), "\(pgn)")
        #expect(!pgn.contains("BlackElo"), "\(pgn)")
    }

    /// Refusing challenges is stored per player until taken back, and every read of a player's
    /// row carries it: by name and by token (what login reads), by id, and as a seeker.
    @Test(arguments: StorageBackend.allCases)
    func refusingChallengesIsStoredOnThePlayersRow(_ backend: StorageBackend) async throws {
        let opened = try await backend.open()
        let storage = opened.storage
        let now = Date()
        let digest = [UInt8](repeating: 7, count: 32)
        let eve = try await storage.createPlayer(
            name: "eve", passwordHash: "h", now: now, token: (digest, now.addingTimeInterval(3600)))
        let ann = try await storage.createPlayer(name: "ann", passwordHash: "h", now: now, token: nil)
        #expect(!eve.refusesChallenges && !ann.refusesChallenges)
        #expect(try await storage.player(id: eve.id!)?.refusesChallenges == false)
        try await storage.setRefusesChallenges(true, playerID: eve.id!)
        let other = try await opened.another()
        #expect(try await other.player(named: "EVE")?.refusesChallenges == true)
        #expect(try await other.player(tokenDigest: digest, now: now)?.refusesChallenges == true)
        #expect(try await other.player(id: eve.id!)?.refusesChallenges == true)
        #expect(try await other.seeker(id: eve.id!)?.player.refusesChallenges == true)
        // Nothing else of eve's row changed, and nobody else's did.
        var refusing = eve
        refusing.refusesChallenges = true
        #expect(try await other.player(id: eve.id!) == refusing)
        #expect(try await other.player(id: ann.id!) == ann)
        try await storage.setRefusesChallenges(false, playerID: eve.id!)
        #expect(try await other.player(named: "eve") == eve)
        await other.close()
        await storage.close()
    }
}
