import ArgumentParser
import Foundation
import NanashiAI
import NanashiCore
import NanashiMatch

/// `nanashi match`: games between two engines (built-in levels or external UAI programs), each
/// opening once with each colour, with the score, the Elo difference and, on request, an SPRT.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Play games between two engines and report the score and Elo difference.",
        discussion: """
            An engine is 'level:N' (a built-in level, 1 to 6) or a shell command that starts a UAI \
            engine, like './nanashi uai'. Without --depth, --nodes, --movetime or --tc, built-in levels \
            use their own limits and external engines get 'go movetime 1000'. Prints one line per \
            game, then the totals from the first engine's point of view.
            """
    )

    @Argument(help: "The first engine: 'level:N' or a command starting a UAI engine.")
    var first: String

    @Argument(help: "The second engine.")
    var second: String

    @Option(help: "Number of games (rounded up to an even number: each opening is played with both colours).")
    var games: Int = 100

    @Option(help: "Search every move to this depth (built-in levels keep their own depth if it is smaller).")
    var depth: Int?

    @Option(help: "Search every move this many nodes.")
    var nodes: UInt64?

    @Option(help: "Think this many milliseconds per move.")
    var movetime: Int?

    @Option(help: "Time control 'SECONDS+INCREMENT', like '10+0.1'; a player out of time loses.")
    var tc: String?

    @Option(help: "Adjudicate a game as a draw after this many plies.")
    var maxPlies: Int = 400

    @Option(help: "Games played at the same time.")
    var concurrency: Int = 1

    @Option(
        help:
            "Stop when a sequential test decides between two Elo differences 'ELO0,ELO1' (alpha = beta = 0.05)."
    )
    var sprt: String?

    @Option(help: "Start the games from these positions (a FEN per line) instead of the built-in book.")
    var openings: String?

    @Option(help: "Append the games to this file as PGN.")
    var pgn: String?

    @Option(help: "Seed of the built-in levels' randomness (default: random).")
    var seed: UInt64?

    /// The match the options describe; bad options are input errors (one line, exit code 2).
    func match() throws -> NanashiMatch.Match {
        try (1...100_000).check(games, "games")
        if let depth { try (1...64).check(depth, "depth") }
        if let nodes, nodes == 0 { throw InputError("bad nodes 0: use 1 or more") }
        if let movetime { try (1...3_600_000).check(movetime, "movetime", unit: "ms") }
        let timeControl = tc.flatMap(TimeControl.init(seconds:))
        if let tc, timeControl == nil {
            throw InputError("bad time control '\(tc)': use SECONDS+INCREMENT, like 10+0.1")
        }
        try (1...10_000).check(maxPlies, "max plies")
        try (1...64).check(concurrency, "concurrency")
        let test = sprt.flatMap(SPRT.init)
        if let sprt, test == nil {
            throw InputError("bad sprt '\(sprt)': use ELO0,ELO1 with ELO0 < ELO1, like 0,10")
        }
        var openingsText: String?
        if let openings {
            guard let text = try? String(contentsOfFile: openings, encoding: .utf8) else {
                throw InputError("cannot read openings file '\(openings)'")
            }
            openingsText = text
        }
        return NanashiMatch.Match(
            first: try PlayerSpec(first), second: try PlayerSpec(second), games: games,
            openings: try openingsText.map { text throws(MatchError) in try Openings.parse(text) }
                ?? Openings.book,
            limits: SearchLimits(
                depth: depth, nodes: nodes, movetime: movetime.map { .milliseconds($0) }),
            timeControl: timeControl, maxPlies: maxPlies, concurrency: concurrency, sprt: test,
            seed: seed ?? UInt64.random(in: 0...UInt64.max))
    }

    func run() throws {
        let match = try match()
        let pgnFile = try pgn.map { path throws(AppendingFile.Problem) in try AppendingFile(path: path) }
        print(match.header)
        flushOutput()
        let tally = try match.run { report in
            print(report.line(of: match))
            flushOutput()
            pgnFile?.append(
                report.played.pgn(
                    event: "nanashi match", round: report.game.round, xName: report.xName, oName: report.oName
                ))
        }
        pgnFile?.close()
        for line in match.closingLines(tally) { print(line) }
    }
}
