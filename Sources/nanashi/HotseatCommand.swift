import ArgumentParser
import NanashiAI
import NanashiCore
import NanashiTerminal

/// `nanashi hotseat`: two people take turns at one keyboard.
struct HotseatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotseat",
        abstract: "Two people play each other at this terminal, turn by turn.",
        discussion: """
            Type a square with your piece to see its moves, then the destination; or a full move \
            (c3, a1c3). Type help for the commands. With piped input, one move or command per line.
            """
    )

    @OptionGroup var fenOption: FENOption

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var screenOption: ScreenOption

    func run() throws {
        let start = try fenOption.position()
        let standard = StandardConsole(noColor: colorOption.noColor)
        let fullScreen = screenOption.fullScreen(
            color: standard.color, title: "nanashi hotseat: x and o at one keyboard")
        defer { fullScreen?.close() }
        let console: any TerminalConsole = fullScreen ?? standard
        let adviser = Engine(hashMegabytes: 4)
        console.say("hot seat: x and o take turns at this keyboard; type help for the commands")
        TerminalGame.playAgain(on: console) {
            TerminalGame(
                game: Game(start: start), console: console, files: LocalFiles(), opponents: [:], labels: [:],
                flipped: false,
                tags: ["Event": "nanashi hotseat", "White": "x", "Black": "o"], hint: adviser.hint(for:))
        }
    }
}
