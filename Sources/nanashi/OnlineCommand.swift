import ArgumentParser
import Foundation
import NanashiClient
import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// `nanashi online`: rated games against other people through a server.
struct OnlineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "online",
        abstract: "Play a rated game online against another person.",
        discussion: """
            Logs in to the server (--server, 127.0.0.1:7878 by default), waits for an opponent at \
            the time control, then plays as in 'nanashi play': a square with your piece, then the \
            destination; or a full move. Type help for the commands.

            The first time, give a name and password (flags, NANASHI_NAME and NANASHI_PASSWORD, \
            or answer the prompts); the session is kept in $XDG_CONFIG_HOME/nanashi/sessions.json \
            (else ~/.config/nanashi/), readable only by you, and used next time. --register creates \
            the account (or logs in if it is yours already); at a terminal, a failed login offers \
            to register the name.

            With piped input, one move or command per line; each line waits for your turn, and the \
            end of input leaves. A dropped connection is retried by itself, and the game resumes.
            """
    )

    @OptionGroup var serverOptions: ServerOptions

    @Option(help: "The time control, MINUTES+SECONDS added per move.")
    var time = "5+3"

    @Option(help: "Your player name (or NANASHI_NAME).")
    var name: String?

    @Option(help: "Your password (or NANASHI_PASSWORD; safer than a flag, which others may see).")
    var password: String?

    @Flag(help: "Create the account (logs in instead when the name and password are yours already).")
    var register = false

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var screenOption: ScreenOption

    func run() async throws {
        let address = try serverOptions.address()
        let control = try TimeControl(parsing: time)
        let login = OnlineLogin(
            name: name, password: password, register: register,
            environment: ProcessInfo.processInfo.environment)
        let console = StandardConsole(noColor: colorOption.noColor)
        let session = OnlineSession(
            OnlineSession.Settings(
                address: address, control: control, register: register,
                savedSession: login.savedSession(for: address),
                isInteractive: console.isInteractive, color: console.color))
        let fullScreen = { [screenOption] in
            screenOption.fullScreen(color: console.color, title: "nanashi online: \(address)")
        }
        _ = try await OnlineRunner(
            address: address, login: login, console: console,
            fullScreen: console.isInteractive && !screenOption.lineMode ? fullScreen : nil
        ).run(session)
    }
}
