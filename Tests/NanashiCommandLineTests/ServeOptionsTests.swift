import NanashiCommandLine
import NanashiRuntime
import NanashiServer
import Testing

// `nanashi serve`'s options make the server's settings, checked before anything starts.

/// The settings of `nanashi serve` with `arguments`.
private func settings(_ arguments: [String]) throws -> ServerSettings {
    try ServeOptions.parse(arguments).settings()
}

/// What `nanashi serve` says is wrong with `arguments`, if it is the settings' problem.
private func problem(_ arguments: [String]) -> String? {
    do {
        _ = try settings(arguments)
        return nil
    } catch {
        return (error as? ServerSettings.Problem)?.description
    }
}

@Test func withNoOptionsTheServerRunsOnItsDefaults() throws {
    let made = try settings([])
    let defaults = ServerSettings()
    #expect(made.host == defaults.host && made.port == defaults.port && made.httpPort == nil)
    #expect(made.databasePath == defaults.databasePath && made.tls == nil)
    #expect(made.abandonGrace == defaults.abandonGrace && made.moveCommitDelay == defaults.moveCommitDelay)
    #expect(made.readBurstPerAddress == defaults.readBurstPerAddress)
}

@Test func everyServeOptionReachesItsSetting() throws {
    let made = try settings([
        "--host", "0.0.0.0", "--port", "7000", "--http", "8080", "--http-host", "0.0.0.0",
        "--metrics-port", "9090", "--metrics-host", "10.0.0.1", "--allow-origin", "https://a.example",
        "--public-host", "b.example:8443", "--db", "x.sqlite", "--grace", "30", "--node-lease", "20",
        "--idle-timeout", "90", "--message-burst", "50", "--message-rate", "10", "--read-burst", "40",
        "--read-rate", "4", "--max-connections", "100", "--max-per-address", "5",
        "--connection-burst", "6", "--connection-rate", "7", "--logins-per-minute", "3",
        "--registrations-per-hour", "2", "--commit-delay", "7", "--background-analyses", "12",
    ])
    #expect(
        made.host == "0.0.0.0" && made.port == 7000 && made.httpPort == 8080 && made.httpHost == "0.0.0.0")
    #expect(made.metricsPort == 9090 && made.metricsHost == "10.0.0.1")
    #expect(made.allowedOrigins == ["https://a.example"] && made.publicHosts == ["b.example:8443"])
    #expect(made.databasePath == "x.sqlite" && made.abandonGrace == .seconds(30))
    #expect(made.nodeLease == .seconds(20) && made.idleTimeout == .seconds(90))
    #expect(made.messageBurst == 50 && made.messageRate == 10)
    #expect(made.readBurstPerAddress == 40 && made.readRatePerAddress == 4)
    #expect(made.maximumConnections == 100 && made.maximumConnectionsPerAddress == 5)
    #expect(made.connectionBurstPerAddress == 6 && made.connectionRatePerAddress == 7)
    #expect(made.loginsPerMinute == 3 && made.registrationsPerHour == 2)
    #expect(made.moveCommitDelay == .milliseconds(7) && made.tls == nil)
    #expect(made.backgroundAnalysesPerHour == 12)
}

@Test func aCertificateAndItsKeyGoTogether() throws {
    #expect(
        try settings(["--tls-cert", "chain.pem", "--tls-key", "key.pem"]).tls
            == TLSFiles(certificateChain: "chain.pem", privateKey: "key.pem"))
    #expect(problem(["--tls-cert", "chain.pem"]) == "--tls-cert and --tls-key go together")
    #expect(problem(["--tls-key", "key.pem"]) == "--tls-cert and --tls-key go together")
}

@Test func aLimitOutOfRangeIsNamed() throws {
    #expect(problem(["--port", "70000"]) == "bad port 70000: use 0 to 65535")
    #expect(problem(["--commit-delay=-1"]) == "bad commit delay -1: use 0 to 100 milliseconds")
}

@Test func theEventLoopsAreOneACoreButOneUnlessTold() throws {
    #expect(EventLoops.defaultCount(environment: [:], cores: 2) == 1)
    #expect(EventLoops.defaultCount(environment: [:], cores: 8) == 7)
    #expect(EventLoops.defaultCount(environment: [:], cores: 1) == 1)
    #expect(EventLoops.defaultCount(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "3"], cores: 2) == 3)
    #expect(EventLoops.defaultCount(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "0"], cores: 2) == 1)
    #expect(EventLoops.defaultCount(environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "two"], cores: 4) == 3)
    #expect(try ServeOptions.parse(["--event-loops", "3"]).eventLoopCount == 3)
    for bad in ["0", "257"] {
        do {
            _ = try ServeOptions.parse(["--event-loops", bad])
            Issue.record("--event-loops \(bad) was taken")
        } catch {
            #expect(ServeOptions.message(for: error) == "bad event loops \(bad): use 1 to 256")
        }
    }
}

@Test func theLogLevelIsOneOfSwiftLogsNames() throws {
    #expect(try ServeOptions.parse(["--log-level", "warning"]).level() == .warning)
    #expect(throws: ServerSettings.Problem.self) { try ServeOptions.parse(["--log-level", "loud"]).level() }
}
