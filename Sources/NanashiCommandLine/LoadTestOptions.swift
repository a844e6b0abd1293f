import ArgumentParser
import NanashiAI
import NanashiCore
import NanashiLoad

/// `nanashi loadtest`'s options: the servers, the bots and what they do, and the report's form.
public struct LoadTestOptions: ParsableArguments {
    public init() {}

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

    @OptionGroup public var accountsOption: AccountsOption

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
    public var json = false

    /// The settings of a run measuring queries, when `--queries` asks for one.
    public func queryTest() throws -> QueryTestSettings? {
        guard let queries else { return nil }
        var settings = QueryTestSettings(servers: try serverOptions.servers())
        (settings.queries, settings.connections) = (queries, clients ?? 1)
        return settings
    }

    /// The settings of a run playing games.
    ///
    /// - Throws: a bad `--server` or `--bind-range`.
    public func loadTest() throws -> LoadTestSettings {
        try LoadTestSettings(
            servers: try serverOptions.servers(), clients: clients, games: games, seconds: duration,
            rampSeconds: ramp, bindRange: bindRange, seed: seed, thinkMilliseconds: think,
            control: TimeControl(initial: initial, increment: increment),
            policy: BotPolicy(resignChance: resignChance, dropChance: dropChance), engineGames: engineGames,
            engineLevel: engineLevel)
    }
}
