import ArgumentParser
import NanashiCommandLine
import NanashiTerminal

/// `nanashi layouts`: the named starting positions, drawn as boards.
struct LayoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layouts",
        abstract: "Show the named starting positions (for --layout: play, hotseat, online and seeks).")

    @OptionGroup var displayOptions: DisplayOptions

    func run() throws {
        print(LayoutSheet.text(color: displayOptions.display.console().color), terminator: "")
    }
}
