import ArgumentParser
import NanashiAI
import NanashiCommandLine

/// `nanashi match`: games between two engines (built-in levels or external UAI programs), each
/// opening once with each colour, with the score, the Elo difference and, on request, an SPRT.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Play games between two engines and report the score and Elo difference.",
        discussion: """
            An engine is 'level:N' (a built-in level, \(Level.range.lowerBound) to \
            \(Level.range.upperBound)) or a shell command that starts a UAI engine, like \
            './nanashi uai'. Without --depth, --nodes, --movetime or --tc, built-in levels \
            use their own limits and external engines get 'go movetime 1000'. Prints one line per \
            game, then the totals from the first engine's point of view.
            """
    )

    @OptionGroup var options: MatchOptions

    func run() throws { try options.run() }
}
