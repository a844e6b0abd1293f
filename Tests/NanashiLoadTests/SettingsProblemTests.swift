import NanashiClient
import NanashiCore
import NanashiLoad
import Testing

// The load test's settings are checked before any bot connects, one problem at a time.

@Test func goodSettingsHaveNoProblem() {
    #expect(LoadTestSettings().problem == nil)
    #expect(QueryTestSettings().problem == nil)
}

@Test func badLoadTestSettingsAreNamedOneAtATimeInTheOptionsOrder() {
    var settings = LoadTestSettings()
    settings.thinkMilliseconds = -5
    settings.control = TimeControl(initial: 0, increment: 3)
    settings.clients = 1
    settings.games = 0
    settings.policy = BotPolicy(resignChance: 0.6, dropChance: 0.6)
    #expect(settings.problem == "bad --think -5: use 0 or more milliseconds")
    settings.thinkMilliseconds = 0
    #expect(settings.problem == "bad time control 0+3: initial 15 to 10800 s, increment 0 to 600 s")
    settings.control = TimeControl(initial: 300, increment: 3)
    #expect(settings.problem == "bad --clients 1: use 2 to 20000")
    settings.clients = 20_001
    #expect(settings.problem == "bad --clients 20001: use 2 to 20000")
    settings.clients = 100
    #expect(settings.problem == "bad --games 0: use 1 or more")
    settings.games = 1
    #expect(settings.problem == "bad chances: each 0 to 1, together at most 1")
    settings.policy = BotPolicy(resignChance: -0.1, dropChance: 0)
    #expect(settings.problem == "bad chances: each 0 to 1, together at most 1")
    settings.policy = BotPolicy()
    #expect(settings.problem == nil)
}

@Test(arguments: [(0, 1, "bad --queries 0: use 1 or more"), (5, 1001, "bad --clients 1001: use 1 to 1000")])
func badQuerySettingsAreNamed(queries: Int, connections: Int, problem: String) {
    var settings = QueryTestSettings()
    (settings.queries, settings.connections) = (queries, connections)
    #expect(settings.problem == problem)
}

@Test func settingsForServersTakeTheirHostsPortsAndTLS() throws {
    let servers = try ServerList(option: "tls://example.org:7900,tls://example.net", trusting: "PEM")
    let load = LoadTestSettings(servers: servers)
    #expect(load.servers == servers && load.clients == LoadTestSettings().clients)
    #expect(LoadTestSettings().servers == .local && QueryTestSettings(servers: servers).servers == servers)
}

@Test func theLoadTestOptionsMakeTheirSettings() throws {
    func settings(clients: Int? = nil, games: Int? = nil, bindRange: String? = nil, engineGames: Int = 0)
        throws(LoadTest.Problem) -> LoadTestSettings
    {
        try LoadTestSettings(
            servers: .local, clients: clients, games: games, seconds: 30, bindRange: bindRange, seed: 9,
            thinkMilliseconds: 5, control: TimeControl(initial: 60, increment: 1),
            policy: BotPolicy(resignChance: 0, dropChance: 0.1), engineGames: engineGames, engineLevel: 3)
    }
    let defaults = try settings(engineGames: -2)
    #expect(defaults.clients == 100 && defaults.games == 50 && defaults.engineGames == 0)
    #expect(defaults.duration == .seconds(30) && defaults.seed == 9 && defaults.thinkMilliseconds == 5)
    #expect(defaults.control == TimeControl(initial: 60, increment: 1) && defaults.engineLevel == 3)
    #expect(defaults.policy.dropChance == 0.1 && defaults.sources == nil)
    #expect(defaults.namePrefix.hasPrefix("lt") && defaults.namePrefix.hasSuffix("x"))
    let given = try settings(clients: 10, games: 3, bindRange: "127.0.2.0/30")
    #expect(given.clients == 10 && given.games == 3 && given.sources == SourceAddresses(cidr: "127.0.2.0/30"))
    #expect(throws: LoadTest.Problem.self) { try settings(bindRange: "127.0.2.0/8") }
    do {
        _ = try settings(bindRange: "nowhere")
    } catch {
        #expect(error.description == "bad --bind-range 'nowhere': use A.B.C.D/N with N from 16 to 32")
    }
}

@Test func aRunShorterThanASecondIsAProblem() {
    var settings = LoadTestSettings()
    settings.duration = .milliseconds(500)
    #expect(settings.problem == "bad --duration 0: use 1 second or more")
}
