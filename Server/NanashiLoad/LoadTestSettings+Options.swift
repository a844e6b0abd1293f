import NanashiClient
import NanashiCore

extension LoadTestSettings {
    /// The settings of `nanashi loadtest`'s options, as given: 100 clients unless `clients` says,
    /// one game per two clients unless `games` does, first connections spread over `rampSeconds`,
    /// `bindRange` an IPv4 block (`A.B.C.D/N`) to
    /// spread the bots over, and registering bots named with a fresh random prefix (so that runs
    /// against one database do not collide). `problem` checks the numbers.
    ///
    /// - Throws: `LoadTest.Problem` for a `bindRange` that is not a block.
    public init(
        servers: ServerList, clients: Int?, games: Int?, seconds: Int, rampSeconds: Int = 0,
        bindRange: String?, seed: UInt64,
        thinkMilliseconds: Int, control: TimeControl, policy: BotPolicy, engineGames: Int, engineLevel: Int
    ) throws(LoadTest.Problem) {
        self.init(servers: servers)
        self.clients = clients ?? 100
        self.games = games ?? self.clients / 2
        duration = .seconds(seconds)
        ramp = .seconds(max(0, rampSeconds))
        if let bindRange {
            guard let sources = SourceAddresses(cidr: bindRange) else {
                throw LoadTest.Problem(
                    description: "bad --bind-range '\(bindRange)': use A.B.C.D/N with N from 16 to 32")
            }
            self.sources = sources
        }
        self.seed = seed
        self.thinkMilliseconds = thinkMilliseconds
        self.control = control
        self.policy = policy
        self.engineGames = max(0, engineGames)
        self.engineLevel = engineLevel
        namePrefix = "lt\(UInt16.random(in: 0...UInt16.max))x"
    }
}
