import ArgumentParser
import NanashiAI
import NanashiTerminal

/// `nanashi replay FILE.pgn`: steps through a recorded game at the terminal.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Step through a PGN game at the terminal.",
        discussion: """
            Reads the first game of the file (as 'nanashi pgn' writes it: White is x, Black is o). \
            Type n (or just Enter) for the next move, b back, s the start, e the end, a number \
            for the position after that many moves, eval for the engine's evaluation and best \
            move of the position shown, q to leave.
            """
    )

    @Argument(help: "The PGN file.")
    var file: String

    @Option(help: "How deep the engine searches for eval, in plies.")
    var depth = 6

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var screenOption: ScreenOption

    func run() throws {
        try (1...20).check(depth, "depth")
        let replay = try Replay(file: file)
        let console = StandardConsole(noColor: colorOption.noColor)
        var session = ReplaySession(replay, color: console.color)
        let search = ReplaySession.search(Engine(hashMegabytes: 16), depth: depth)
        if let fullScreen = screenOption.fullScreen(color: console.color) {
            defer { fullScreen.close() }
            session.run(fullScreen: fullScreen, search: search)
        } else {
            session.run(on: console, search: search)
        }
    }
}
