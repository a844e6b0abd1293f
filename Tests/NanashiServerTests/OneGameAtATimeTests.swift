import NanashiCluster
import NanashiProtocol
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

/// Two starts of one player's games, each checked before it waited (for storage, for another
/// game, for the engine's reservation), reach `startingGame` one after the other: the second
/// is refused there. Once, both started, and the player had two games at once.
@Suite struct OneGameAtATimeTests {
    static let refused = ProtocolError(
        .inGame, "a player of this game has another game in progress or starting")

    /// The refusal `startingGame(of: players)` gives now; nil if it counted the game (which is
    /// then ended at once, so that the server can stop).
    static func refusal(of players: [Int64], by lobby: Lobby) async -> ProtocolError? {
        do {
            try await lobby.startingGame(of: players)
        } catch {
            return error
        }
        await lobby.startedGame(of: players)
        return nil
    }

    /// A seek of a game of one minute.
    static let seek = #"{"type":"seek","initial":60,"increment":0}"#

    /// ann, bob and cat (players 1, 2 and 3), registered on `server`; ann seeks `seek`.
    static func annSeekingBobAndCat(on server: TestServer) async throws -> (
        TestClient, TestClient, TestClient
    ) {
        let (ann, bob) = try await annAndBob(on: server)
        let cat = try server.client()
        _ = try await register(cat, "cat")
        #expect(try await ann.exchange(seek) == #"{"type":"seeking"}"#)
        return (ann, bob, cat)
    }

    /// While ann's game is stored (held by the database's write lock) and once it is under
    /// way, no other start of hers or bob's is counted, alone or with another player; cat's is.
    @Test func aPlayerBeingStartedOrPlayingHasNoSecondStart() async throws {
        let server = try await TestServer { $0.databaseBusyTimeout = .seconds(30) }
        let (ann, bob, cat) = try await Self.annSeekingBobAndCat(on: server)
        let lobby = server.server!.lobby
        let lock = try WriteLockHolder(path: server.database.path)
        #expect(try await bob.exchange(Self.seek) == #"{"type":"seeking"}"#)
        while await !lobby.starting.contains(1) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await Self.refusal(of: [1], by: lobby) == Self.refused)
        #expect(await Self.refusal(of: [3, 2], by: lobby) == Self.refused)
        #expect(await lobby.starting == [1, 2])
        lock.release()
        #expect(try await ann.line().contains(#""type":"start""#))
        #expect(try await bob.line().contains(#""type":"start""#))
        while await lobby.starting.contains(1) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await Self.refusal(of: [1], by: lobby) == Self.refused)
        #expect(await Self.refusal(of: [2], by: lobby) == Self.refused)
        #expect(await Self.refusal(of: [3], by: lobby) == nil)
        await server.stop()
    }

    /// A pairing pass takes ann and bob out of the pool while another start of ann's is under
    /// way: their game does not start; ann's seek is over, and bob's goes back to the pool,
    /// where cat then meets him.
    @Test func aPairOneOfWhomIsBeingStartedElsewhereIsNotStarted() async throws {
        let server = try await TestServer { $0.pairingInterval = .seconds(600) }
        let (ann, bob, cat) = try await Self.annSeekingBobAndCat(on: server)
        let lobby = server.server!.lobby
        // Another start of ann's (a game against the engine, an accepted challenge) counted
        // after her seek was checked.
        try await lobby.startingGame(of: [1])
        #expect(try await bob.exchange(Self.seek) == #"{"type":"seeking"}"#)
        while await lobby.seekers[1] != nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(await lobby.matchmaker.seeks.map(\.playerID) == [2])
        // (Stops here if their game started: cat would wait for bob for ever.)
        try #require(await lobby.games.isEmpty)
        await lobby.startedGame(of: [1])
        #expect(try await cat.exchange(Self.seek) == #"{"type":"seeking"}"#)
        #expect(try await bob.line().contains(#""type":"start""#))
        #expect(try await cat.line().contains(#""type":"start""#))
        #expect(try await ann.exchange(#"{"type":"ping","id":1}"#) == #"{"id":1,"type":"pong"}"#)
        await server.stop()
    }

    /// With several nodes, ann's seek in the shared pool is paired by a pass (here taken out of
    /// the pool as a pass takes it, before the lobby hears of its game) while her game against
    /// the engine is being started: that game does not start, and she hears why. Her next
    /// one starts; so does one of a player who sought first, whose seek it ends.
    @Test(arguments: NodesBackend.allCases) func aSharedSeekPairedFirstStopsAnotherStart(
        _ backend: NodesBackend
    )
        async throws
    {
        let node = try await NodesPlace(backend).nodes(1)[0]
        let (ann, bob) = try await annAndBob(on: node)
        let lobby = node.server!.lobby
        #expect(try await ann.exchange(Self.seek) == #"{"type":"seeking"}"#)
        #expect(try await lobby.cluster!.removeSeek(playerID: 1))
        let engine = #"{"type":"seek","ai":1,"color":"x","initial":60,"increment":0,"id":1}"#
        #expect(try await ann.exchange(engine) == #"{"id":1,"type":"seeking"}"#)
        #expect(try await ann.line() == Wire.line(Reply(.error(Self.refused))))
        #expect(await lobby.games.isEmpty)
        #expect(try await ann.exchange(engine) == #"{"id":1,"type":"seeking"}"#)
        #expect(try await ann.line().contains(#""type":"start""#))
        #expect(try await bob.exchange(Self.seek) == #"{"type":"seeking"}"#)
        #expect(try await bob.exchange(engine) == #"{"id":1,"type":"seeking"}"#)
        #expect(try await bob.line().contains(#""type":"start""#))
        #expect(try await lobby.cluster!.removeSeek(playerID: 2) == false)
        await node.stop()
    }
}
