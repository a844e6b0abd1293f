import NanashiAI
import NanashiProtocol
import NanashiRuntime
import NanashiServerTestSupport
import Testing

@testable import NanashiServer

/// Who may start a game against the engine, and rematch one, apart from any lobby or socket.
@Suite struct EngineGamesTests {
    private func settings(_ clock: TestClock) -> ServerSettings {
        var settings = ServerSettings()
        settings.clock = clock
        (settings.maximumEngineGames, settings.maximumEngineGamesPerAddress) = (3, 2)
        (settings.engineSeekBurst, settings.engineSeeksPerMinute) = (10, 6)
        return settings
    }

    /// The code of the error `check` throws, if any.
    private func code(_ check: () throws -> Void) -> ErrorCode? {
        do {
            try check()
            return nil
        } catch {
            return (error as? ProtocolError)?.code
        }
    }

    @Test func anAddressHasTwoGamesAndTheNodeThree() throws {
        var engineGames = EngineGames(settings: settings(TestClock()))
        let level = try #require(Level(8))
        #expect(code { try engineGames.reserve(1, from: "a") } == nil)
        engineGames.started(100, of: 1, engine: 900, level: level, from: "a")
        #expect(code { try engineGames.reserve(4, from: "a") } == nil)
        engineGames.started(101, of: 4, engine: 900, level: level, from: "a")
        #expect(code { try engineGames.reserve(2, from: "a") } == .busy)
        #expect(Set(engineGames.games(from: "a")) == [100, 101] && engineGames.games(from: "b").isEmpty)
        #expect(code { try engineGames.reserve(5, from: "b") } == nil)
        engineGames.started(102, of: 5, engine: 900, level: level, from: "b")
        #expect(code { try engineGames.reserve(3, from: "c") } == .busy)
        engineGames.ended(Rematches.Ended(game: 100, x: 1, o: 900, control: .standard), connected: [1])
        #expect(code { try engineGames.reserve(3, from: "c") } == nil)
        engineGames.release(3)
        #expect(code { try engineGames.reserve(3, from: "a") } == nil)
    }

    /// A game being started counts as one in progress until it starts or its reservation is
    /// released: seeks that arrive meanwhile once passed the limits together.
    @Test func gamesBeingStartedCountUntilStartedOrReleased() throws {
        var engineGames = EngineGames(settings: settings(TestClock()))
        let level = try #require(Level(8))
        #expect(code { try engineGames.reserve(1, from: "a") } == nil)
        #expect(code { try engineGames.reserve(2, from: "a") } == nil)
        #expect(code { try engineGames.reserve(3, from: "a") } == .busy)
        engineGames.release(1)
        #expect(code { try engineGames.reserve(3, from: "a") } == nil)
        // The node's three: two being started from a, one from b.
        #expect(code { try engineGames.reserve(4, from: "b") } == nil)
        #expect(code { try engineGames.reserve(5, from: "c") } == .busy)
        engineGames.started(100, of: 2, engine: 900, level: level, from: "a")
        #expect(code { try engineGames.reserve(5, from: "c") } == .busy)
        // A player's own reservation is not counted against them again.
        #expect(code { try engineGames.reserve(4, from: "b") } == nil)
        engineGames.release(3)
        engineGames.release(4)
        #expect(code { try engineGames.reserve(5, from: "c") } == nil)
    }

    @Test func aPlayerStartsTenAtOnceThenSixAMinute() throws {
        let clock = TestClock()
        var engineGames = EngineGames(settings: settings(clock))
        for _ in 0..<10 { #expect(code { try engineGames.reserve(1, from: "a") } == nil) }
        #expect(code { try engineGames.reserve(1, from: "a") } == .rateLimited)
        #expect(code { try engineGames.reserve(2, from: "a") } == nil)
        clock.advance(by: .seconds(10))
        #expect(code { try engineGames.reserve(1, from: "a") } == nil)
        #expect(code { try engineGames.reserve(1, from: "a") } == .rateLimited)
    }

    @Test func onlyAConnectedPlayersLastGameIsRematchedAtItsLevelUntilTheyMoveOn() throws {
        var engineGames = EngineGames(settings: settings(TestClock()))
        let level = try #require(Level(5))
        engineGames.started(100, of: 1, engine: 905, level: level, from: "a")
        let ended = Rematches.Ended(game: 100, x: 905, o: 1, control: .standard)
        #expect(engineGames.rematch(of: 100, by: 1) == nil)
        engineGames.ended(ended, connected: [1])
        #expect(engineGames.rematch(of: 100, by: 1)?.game == ended)
        #expect(engineGames.rematch(of: 100, by: 1)?.level == level)
        #expect(engineGames.rematch(of: 99, by: 1) == nil && engineGames.rematch(of: 100, by: 2) == nil)
        engineGames.moveOn(1)
        #expect(engineGames.rematch(of: 100, by: 1) == nil)
    }
}
