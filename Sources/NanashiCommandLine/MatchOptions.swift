import ArgumentParser
import NanashiMatch
import NanashiTerminal

/// `nanashi match`'s engines and options: how many games, how each is played, when to stop.
public struct MatchOptions: ParsableArguments {
    public init() {}

    @Argument(help: "The first engine: 'level:N' or a command starting a UAI engine.")
    var first: String

    @Argument(help: "The second engine.")
    var second: String

    @Option(help: "Number of games (rounded up to an even number: each opening is played with both colours).")
    var games: Int = 100

    @Option(help: "Search every move to this depth (built-in levels keep their own depth if it is smaller).")
    var depth: Int?

    @OptionGroup var play: EngineGameOptions

    @Option(help: "Adjudicate a game as a draw after this many plies.")
    var maxPlies: Int = 400

    @Option(
        help:
            "Stop when a sequential test decides between two Elo differences 'ELO0,ELO1' (alpha = beta = 0.05)."
    )
    var sprt: String?

    @Option(help: "Append the games to this file as PGN.")
    var pgn: String?

    @Option(help: "Seed of the built-in levels' randomness (default: random).")
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "Keep each game's result in this file as it ends.",
            discussion:
                "The same command with the same journal goes on where the match stopped: it counts the games the journal holds and plays the others (--games may grow)."
        ))
    var journal: String?

    /// Plays the match, a line a game and the totals to standard output.
    public func run() throws {
        let match = try NanashiMatch.Match.parsing(
            first: first, second: second, games: games, depth: depth, nodes: play.nodes,
            movetime: play.movetime,
            tc: play.tc, maxPlies: maxPlies, concurrency: play.concurrency, sprt: sprt,
            openings: play.openings,
            seed: seed)
        try match.play(appendingPGNTo: pgn, journal: journal, line: StandardOutput.line)
    }
}
