import NanashiClient
import NanashiCommandLine
import NanashiCore
import NanashiLoad
import Testing

// `nanashi loadtest`'s options make a run's settings: a run of queries or one of games.

@Test func queriesAskForAQueryRunOverTheConnectionsGiven() throws {
    let options = try LoadTestOptions.parse([
        "--queries", "50", "--clients", "4", "--server", "127.0.0.1:9000",
    ])
    let settings = try #require(try options.queryTest())
    #expect(settings.queries == 50 && settings.connections == 4)
    #expect(settings.servers == ServerList(ServerAddress(host: "127.0.0.1", port: 9000)))
    #expect(try LoadTestOptions.parse([]).queryTest() == nil)
}

@Test func theGamesRunTakesEveryOption() throws {
    let options = try LoadTestOptions.parse([
        "--clients", "10", "--duration", "20", "--ramp", "3", "--think", "250", "--initial", "60",
        "--increment", "1", "--resign-chance", "0.5", "--drop-chance", "0.25", "--engine-games", "2",
        "--engine-level", "4", "--seed", "9", "--bind-range", "127.0.1.0/24", "--json",
    ])
    let settings = try options.loadTest()
    #expect(settings.clients == 10 && settings.games == 5 && settings.duration == .seconds(20))
    #expect(settings.ramp == .seconds(3) && settings.thinkMilliseconds == 250 && settings.seed == 9)
    #expect(settings.control == TimeControl(initial: 60, increment: 1))
    #expect(settings.policy == BotPolicy(resignChance: 0.5, dropChance: 0.25))
    #expect(settings.engineGames == 2 && settings.engineLevel == 4 && options.json)
}

@Test func aBindRangeThatIsNotABlockIsRefused() throws {
    #expect(throws: LoadTest.Problem.self) {
        try LoadTestOptions.parse(["--bind-range", "127.0.1.0/8"]).loadTest()
    }
}
