import ArgumentParser
import NanashiAI
import NanashiCore
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

    @OptionGroup var serverOptions: ServerOptions

    @Option(help: "Bots connected at once (or connections, with --queries).")
    var clients: Int?

    @Option(help: "Games to complete in all (default: one per two clients).")
    var games: Int?

    @Option(help: "Stop after this many seconds even if games are unfinished.")
    var duration = 600

    @Option(
        help: ArgumentHelp(
            "Spread the bots' first connections evenly over this many seconds (0: all at once, in batches 10 ms apart).",
            valueName: "seconds"))
    var ramp = 0

    @OptionGroup var accountsOption: AccountsOption

    @Option(help: "The chance per turn that a bot resigns.")
    var resignChance = 0.002

    @Option(help: "The chance per turn that a bot drops its connection and reconnects.")
    var dropChance = 0.002

    @Option(help: "Mean milliseconds a bot waits before each move (0: at once, for throughput).")
    var think = 0

    @Option(help: "Initial clock of the bots' seeks, in seconds.")
    var initial = 300

    @Option(help: "Increment of the bots' seeks, in seconds.")
    var increment = 3

    @Option(help: "Measure this many leaderboard pages and as many profiles instead of playing.")
    var queries: Int?

    @Option(
        help: ArgumentHelp(
            "Spread the bots over the source addresses of this IPv4 block (e.g. 127.0.1.0/24), so the server's per-address limits see many clients.",
            valueName: "cidr"))
    var bindRange: String?

    @Option(help: "Games against the server's engine kept running meanwhile (each by a bot of its own).")
    var engineGames = 0

    @Option(
        help: "The engine's level in those games (\(Level.range.lowerBound) to \(Level.range.upperBound)).")
    var engineLevel = Level.strongest.number

    @Option(help: "Seed of the bots' random choices.")
    var seed: UInt64 = 1

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let servers = try serverOptions.servers()
        // A thousand bots need a thousand sockets: the soft limit on open files goes up to the hard one.
        _ = DescriptorLimit.raise(toAtMost: .max)
        if let queries {
            let settings = QueryTestSettings(servers: servers, queries: queries, connections: clients ?? 1)
            return print(try await QueryTest.checkedRun(settings).printed(json: json))
        }
        let settings = try LoadTestSettings(
            servers: servers, clients: clients, games: games, seconds: duration, rampSeconds: ramp,
            bindRange: bindRange,
            seed: seed, thinkMilliseconds: think,
            control: TimeControl(initial: initial, increment: increment),
            policy: BotPolicy(resignChance: resignChance, dropChance: dropChance), engineGames: engineGames,
            engineLevel: engineLevel)
        let (report, note) = try await LoadTest.run(settings, accounts: accountsOption.accounts) {
            StandardOutput.error($0.line)
        }
        if let note { StandardOutput.error(note) }
        print(report.printed(json: json))
    }
}
