import ArgumentParser

/// How engines' games are played, as `nanashi match` and `nanashi tune --spsa` take it: a limit
/// a move or a clock, how many at a time, and where they start.
public struct EngineGameOptions: ParsableArguments {
    public init() {}

    @Option(help: "Search every move this many nodes.")
    public var nodes: UInt64?

    @Option(help: "Think this many milliseconds per move.")
    public var movetime: Int?

    @Option(help: "Time control 'SECONDS+INCREMENT', like '10+0.1'; a player out of time loses.")
    public var tc: String?

    @Option(help: "Games played at the same time.")
    public var concurrency: Int = 1

    @Option(help: "Start the games from these positions (a FEN per line) instead of the built-in book.")
    public var openings: String?
}
