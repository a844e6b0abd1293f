import NanashiCore
import NanashiLoad
import Testing

// The load test's settings are checked before any bot connects, one problem at a time.

/// The default settings with one change.
private func changed(_ change: (inout LoadTestSettings) -> Void) -> LoadTestSettings {
    var settings = LoadTestSettings()
    change(&settings)
    return settings
}

@Test func goodSettingsHaveNoProblem() {
    #expect(LoadTestSettings().problem == nil)
    #expect(QueryTestSettings().problem == nil)
}

@Test func aBadLoadTestSettingIsNamed() {
    let cases: [(LoadTestSettings, String)] = [
        (changed { $0.thinkMilliseconds = -5 }, "bad --think -5: use 0 or more milliseconds"),
        (
            changed { $0.control = TimeControl(initial: 0, increment: 3) },
            "bad time control 0+3: initial 1 to 10800 s, increment 0 to 600 s"
        ),
        (changed { $0.clients = 1 }, "bad --clients 1: use 2 to 20000"),
        (changed { $0.clients = 20_001 }, "bad --clients 20001: use 2 to 20000"),
        (changed { $0.games = 0 }, "bad --games 0: use 1 or more"),
        (
            changed { $0.policy = BotPolicy(resignChance: 0.6, dropChance: 0.6) },
            "bad chances: each 0 to 1, together at most 1"
        ),
        (
            changed { $0.policy = BotPolicy(resignChance: -0.1, dropChance: 0) },
            "bad chances: each 0 to 1, together at most 1"
        ),
    ]
    for (settings, problem) in cases { #expect(settings.problem == problem) }
}

@Test func badQuerySettingsAreNamed() {
    var settings = QueryTestSettings()
    settings.queries = 0
    #expect(settings.problem == "bad --queries 0: use 1 or more")
    settings.queries = 5
    settings.connections = 1001
    #expect(settings.problem == "bad --clients 1001: use 1 to 1000")
}
