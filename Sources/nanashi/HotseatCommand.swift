import ArgumentParser
import NanashiCommandLine
import NanashiTerminal

/// `nanashi hotseat`: two people take turns at one keyboard.
struct HotseatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hotseat",
        abstract: "Two people play each other at this terminal, turn by turn.",
        discussion: LocalPlay.howToMove
            + " Type help for the commands. With piped input, one move or command per line."
    )

    @OptionGroup var fenOption: FENOption

    @OptionGroup var displayOptions: DisplayOptions

    func run() throws {
        let start = try fenOption.position()
        displayOptions.display.run(title: "nanashi hotseat: x and o at one keyboard") { console in
            LocalPlay.hotseat(from: start, console: console)
        }
    }
}
