import ArgumentParser
import Foundation
import NanashiAI
import NanashiClient
import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// `nanashi online`: rated games against other people through a server, or unrated ones against
/// the server's engine (`--ai LEVEL`).
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

            With --ai LEVEL (1 to 17, as in 'nanashi play') the game is against the server's own \
            engine at that level, starting at once, unrated, in the same account and archive; \
            --side picks your side (random by default).

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

    @Option(help: "Play the server's engine at this level (1 to 17) instead of a person, unrated.")
    var ai: Int?

    @Option(help: "With --ai, your side: x (moves first), o, or random.")
    var side: LocalPlay.SideChoice = .random

    @OptionGroup var colorOption: ColorOption

    @OptionGroup var screenOption: ScreenOption

    func validate() throws {
        if let ai { try Level.range.check(ai, "--ai") }
    }

    func run() async throws {
        let servers = try serverOptions.servers()
        let control = try TimeControl(parsing: time)
        let login = OnlineLogin(
            name: name, password: password, register: register,
            environment: ProcessInfo.processInfo.environment)
        let console = StandardConsole(noColor: colorOption.noColor)
        let session = OnlineSession(
            OnlineSession.Settings(
                servers: servers, control: control, register: register,
                savedSession: login.savedSession(for: servers),
                isInteractive: console.isInteractive, color: console.color,
                engine: ai.map { level in (level, side == .x ? .x : side == .o ? .o : nil) }))
        let fullScreen = { [screenOption] in
            screenOption.fullScreen(color: console.color, title: "nanashi online: \(servers)")
        }
        _ = try await OnlineRunner(
            servers: servers, login: login, console: console,
            fullScreen: console.isInteractive && !screenOption.lineMode ? fullScreen : nil
        ).run(session)
    }
}
