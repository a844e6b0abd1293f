import ArgumentParser
import NanashiCommandLine
import NanashiLoad
import NanashiTerminal
import NanashiTransport

/// `nanashi loadtest`: bot clients against a running server; a benchmark, not a test.
struct LoadTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loadtest",
        abstract: "Benchmark a running server with bot clients (a benchmark, not a test).",
        discussion: """
            Bots register (or log in with tokens from --accounts), seek, play legal moves (at once, \
            or after --think), and now and then resign, or drop the connection and come back with \
            'auth'. A bot that has played its share of the games stays connected, idle, until the \
            run ends: when --games games are completed or after --duration seconds. A progress line \
            goes to standard error each second; the report (most clients connected and games in \
            progress at once, games completed, moves/s, move round trip p50/p99/max over the whole \
            run and over the moves sent once every game had started, errors by code) to standard output. Registering costs the server an scrypt \
            hash per bot: seed bot accounts with 'nanashi seed --bots N --accounts FILE' and pass \
            the same --accounts FILE here. With --queries, measures leaderboard and profile round \
            trips instead of playing. With --engine-games N, N more bots each keep a game against the \
            server's engine (at --engine-level) going throughout, answering at once; the report \
            adds the engine's moves per second, and the round trips stay the people's.
            """
    )

    @OptionGroup var options: LoadTestOptions

    func run() async throws {
        // A thousand bots need a thousand sockets: the soft limit on open files goes up to the hard one.
        _ = DescriptorLimit.raise(toAtMost: .max)
        if let settings = try options.queryTest() {
            return print(try await QueryTest.checkedRun(settings).printed(json: options.json))
        }
        let (report, note) = try await LoadTest.run(
            try options.loadTest(), accounts: options.accountsOption.accounts
        ) {
            StandardOutput.error($0.line)
        }
        if let note { StandardOutput.error(note) }
        print(report.printed(json: options.json))
    }
}
