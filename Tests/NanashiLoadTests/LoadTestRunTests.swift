import Foundation
import NanashiClient
import NanashiProtocol
import NanashiRuntime
import NanashiServer
import NanashiServerTestSupport
import Testing

@testable import NanashiLoad

@Test func fourBotsCompleteTwoGamesThenComeBackWithTheirTokens() async throws {
    // Two connections per address: the bots must come from addresses of their own.
    let server = try await TestServer { $0.maximumConnectionsPerAddress = 2 }
    // Drops are frequent here so reconnecting is exercised in every run.
    var settings = fourBotsPlayingTwoGames(on: server, dropChance: 0.05)
    settings.sources = SourceAddresses(cidr: "127.0.2.0/30")
    let (first, registered) = try await LoadTest.run(settings)
    #expect(first.gamesCompleted == 2)
    #expect(first.gamesUnfinished == 0)
    // Bots done with their share stay connected until the run stops.
    #expect(first.peakConnected == 4)
    #expect((1...2).contains(first.peakGamesPlaying))
    #expect(first.errors == [:])
    #expect(first.moves > 0 && first.latency.count == first.moves)
    // Both games started, and moves were sent after the second began (a game lasts many plies).
    let going = try #require(first.allGoing)
    #expect(going.latency.count > 0 && going.latency.count <= first.moves)
    #expect(going.from >= 0 && going.from <= first.seconds)
    #expect(Set(registered.map(\.name)) == ["lt1", "lt2", "lt3", "lt4"])

    // A second run logs the same accounts in with their tokens instead of registering, and
    // thinks a little before each move.
    settings.accounts = registered
    settings.policy = BotPolicy(resignChance: 0.05, dropChance: 0.05)
    settings.thinkMilliseconds = 2
    let (second, none) = try await LoadTest.run(settings)
    #expect(second.gamesCompleted == 2 && second.errors == [:])
    #expect(none.isEmpty)

    var queries = QueryTestSettings(servers: ServerList(ServerAddress(host: "127.0.0.1", port: server.port)))
    queries.queries = 10
    queries.connections = 2
    let report = try await QueryTest.run(queries)
    #expect(report.rankedPlayers == 4)
    #expect(report.leaderboard.count == 10 && report.profile.count == 10)
    #expect(report.errors == [:])
    await server.stop()
}

/// Bots playing the engine keep their games going while two people's games are measured: their
/// moves are not the people's round trips, and the engine's moves are counted apart.
@Test func engineGamesRunBesideThePeoplesGames() async throws {
    // Six bots from one address, on a test clock that does not move: their registrations,
    // logins, messages and games against the engine must fit the budgets without waiting for a
    // refill (the engine's bots play as many games and moves as the people's games leave them
    // time for).
    let server = try await TestServer {
        $0.registrationsPerHour = 20
        $0.loginsPerMinute = 20
        $0.messageBurst = 1_000_000
        $0.engineSeekBurst = 1_000_000
    }
    var settings = fourBotsPlayingTwoGames(on: server, dropChance: 0, namePrefix: "pe")
    settings.engineGames = 2
    settings.engineLevel = 1
    let (report, registered) = try await runCompletingBothGames(settings)
    #expect(report.errors == [:])
    #expect(report.latency.count == report.moves)
    let engine = try #require(report.engine)
    // How many moves the engine made depends on how long the people's games lasted; that its
    // games were going is what this run can count on.
    #expect(engine.gamesPlaying + engine.gamesEnded >= 2)
    #expect(report.text.contains("engine games \(engine.gamesPlaying) playing"))
    // The people's games were between the four people's bots: none of them is the engine.
    #expect(Set(registered.map(\.name)).isSuperset(of: ["pe1", "pe2", "pe3", "pe4"]))
    await server.stop()
}

/// A bot whose registration the server is too busy to hash asks again later, on the same
/// connection, rather than staying logged out all run.
@Test func botsRefusedAsBusyAtRegistrationAskAgainAndPlay() async throws {
    // One hash at a time and none waiting, each taking a while: of four registrations sent at
    // once, the three that come while the first is hashed are refused as busy.
    var cost = ScryptCost.testing
    (cost.log2N, cost.r) = (14, 8)
    let server = try await TestServer {
        $0.passwordCost = cost
        $0.concurrentHashes = 1
        $0.queuedHashes = 0
        $0.registrationsPerHour = 100
        $0.loginsPerMinute = 100
    }
    let settings = fourBotsPlayingTwoGames(on: server, dropChance: 0, namePrefix: "busy")
    let (report, registered) = try await runCompletingBothGames(settings)
    #expect(Set(registered.map(\.name)) == ["busy1", "busy2", "busy3", "busy4"])
    #expect(Array(report.errors.keys) == ["busy"])
    #expect((report.errors["busy"] ?? 0) >= 1)
    await server.stop()
}

/// Given two servers of which the first is down, the bots that start at it go on to the second.
@Test func botsGoOnToTheNextServerWhenOneCannotBeReached() async throws {
    let server = try await TestServer()
    var settings = fourBotsPlayingTwoGames(on: server, dropChance: 0, namePrefix: "next")
    // Port 1 on this machine: nothing listens there, so the connection is refused.
    settings.servers = try ServerList(parsing: "127.0.0.1:1,127.0.0.1:\(server.port)")
    let (report, registered) = try await runCompletingBothGames(settings)
    // Bots 2 and 4 start at the second server; 1 and 3 are refused by the first, once each.
    #expect(report.errors == ["connect_failed": 2])
    #expect(registered.count == 4)
    await server.stop()
}

/// Four bots that play two games on `server` and never resign; `dropChance` is their policy's
/// chance of dropping the connection, `namePrefix` what their names start with.
private func fourBotsPlayingTwoGames(on server: TestServer, dropChance: Double, namePrefix: String = "lt")
    -> LoadTestSettings
{
    var settings = LoadTestSettings(servers: ServerList(ServerAddress(host: "127.0.0.1", port: server.port)))
    settings.namePrefix = namePrefix
    settings.clients = 4
    settings.games = 2
    settings.duration = .seconds(120)
    settings.policy = BotPolicy(resignChance: 0, dropChance: dropChance)
    return settings
}

/// Runs the load test `settings` describes, which must complete both its games: its report,
/// and the accounts its bots registered.
private func runCompletingBothGames(
    _ settings: LoadTestSettings, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (LoadReport, [BotAccount]) {
    let (report, registered) = try await LoadTest.run(settings)
    #expect(report.gamesCompleted == 2 && report.gamesUnfinished == 0, sourceLocation: sourceLocation)
    return (report, registered)
}
