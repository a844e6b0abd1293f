import Foundation
import NIOCore
import NIOPosix
import NanashiClient
import NanashiCore
import NanashiProtocol

/// How a load test runs: where the server is, how many bots, how many games, for how long.
public struct LoadTestSettings: Sendable {
    /// The servers, each with its TLS and the certificates to trust: bot i starts at the i-th
    /// (wrapping) and goes on to the next when a connection fails.
    public var servers: ServerList
    /// Bots connected at once.
    public var clients = 100
    /// Games to complete in all; bots seek until that many games have started.
    public var games = 50
    /// The run stops after this long even if games are unfinished.
    public var duration = Duration.seconds(600)
    /// The bots' first connections are spread evenly over this long (in batches of 50); zero
    /// connects them batch after batch, 10 ms apart.
    public var ramp = Duration.zero
    /// The time control the bots seek.
    public var control = TimeControl(initial: 300, increment: 3)
    public var policy = BotPolicy()
    /// The mean milliseconds a bot waits before each move (uniform from zero to twice this);
    /// zero plays at once, which measures throughput rather than latency at a given pace.
    public var thinkMilliseconds = 0
    /// Known accounts (from an accounts file) used first; bots beyond them register.
    public var accounts: [BotAccount] = []
    /// Names of bots that register: the prefix, then the bot's number.
    public var namePrefix = "lt"
    public var password = "loadtest-password"
    /// Seeds each bot's random choices (bot i uses seed + i).
    public var seed: UInt64 = 1
    /// Addresses bots connect from, bot i from the i-th (wrapping); `nil`: the system's choice.
    public var sources: SourceAddresses?
    /// Games against the server's engine kept running throughout the run, each by a bot of its
    /// own that answers at once and seeks the engine again when a game ends; their moves are
    /// not in the report's latencies (the engine's are counted apart). They log in with the
    /// known accounts after the people's bots' (`accounts[clients...]`), else register.
    public var engineGames = 0
    /// The engine's level in those games.
    public var engineLevel = 24
    /// The time control of those games.
    public var engineControl = TimeControl(initial: 3600, increment: 10)

    /// The default settings, against `servers`.
    public init(servers: ServerList = .local) {
        self.servers = servers
    }
}

/// The load generator: bots on SwiftNIO event loops, playing against one server or several.
public enum LoadTest {
    /// Runs the bots until every game wanted is completed (or the duration is up), calling
    /// `progress` about once a second.
    ///
    /// - Returns: the report, and the accounts registered during the run (with their tokens).
    public static func run(
        _ settings: LoadTestSettings, progress: @escaping @Sendable (LoadProgress) -> Void = { _ in }
    ) async throws -> (report: LoadReport, registered: [BotAccount]) {
        let stats = LoadStats(games: settings.games)
        let group = MultiThreadedEventLoopGroup.singleton
        let servers = try settings.servers.addresses.map(LineServer.init)
        let bots = (0..<settings.clients).map { index in
            let account =
                index < settings.accounts.count
                ? settings.accounts[index] : BotAccount(name: "\(settings.namePrefix)\(index + 1)")
            return Bot(
                account: account, seed: settings.seed &+ UInt64(index), settings: settings, stats: stats,
                servers: servers, first: index, source: settings.sources?.address(index), on: group.next())
        }
        let engineBots = (0..<settings.engineGames).map { index in
            // Known accounts past the people's bots' go to these bots first.
            Bot(
                account: settings.clients + index < settings.accounts.count
                    ? settings.accounts[settings.clients + index]
                    : BotAccount(name: "\(settings.namePrefix)ai\(index + 1)"),
                seed: settings.seed &+ UInt64(settings.clients + index), settings: settings, stats: stats,
                servers: servers, first: settings.clients + index, on: group.next(),
                engineLevel: settings.engineLevel)
        }
        // The engine's games first: the people's run starts once they are all under way.
        for bot in engineBots { bot.eventLoop.execute { bot.start() } }
        let engineDeadline = ContinuousClock.now + .seconds(30)
        while stats.engineGamesPlaying < settings.engineGames && ContinuousClock.now < engineDeadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let began = ContinuousClock.now
        stats.peopleStarted()
        let deadline = began + settings.duration
        // Connect in batches so the server's accept backlog is not overrun all at once.
        let batches = (bots.count + 49) / 50
        for (number, batch) in stride(from: 0, to: bots.count, by: 50).enumerated() {
            for bot in bots[batch..<min(batch + 50, bots.count)] { bot.eventLoop.execute { bot.start() } }
            let next = began + settings.ramp * (Double(number + 1) / Double(batches))
            try await Task.sleep(until: max(next, ContinuousClock.now + .milliseconds(10)))
        }
        var lastProgress = began
        while stats.finishedBots < settings.clients && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let now = ContinuousClock.now
            if now - lastProgress >= .seconds(1) {
                progress(
                    stats.progress(
                        seconds: (now - began).inSeconds, sinceSeconds: (now - lastProgress).inSeconds))
                lastProgress = now
            }
        }
        let elapsed = (ContinuousClock.now - began).inSeconds
        for bot in bots + engineBots { bot.eventLoop.execute { bot.stop() } }
        return (
            stats.report(clients: settings.clients, games: settings.games, seconds: elapsed),
            stats.registeredAccounts
        )
    }
}
