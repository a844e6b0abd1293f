import NanashiCore
import NanashiTerminal

extension OnlineRunner {
    /// Plays `nanashi online` at this terminal to its end: logs in to `servers` with `login`,
    /// then seeks a person at `control`, or with `engine` plays the server's engine at that
    /// level (`side` `random` lets the server choose), full screen unless `display` says not.
    ///
    /// - Throws: `OnlineFailure` when the servers cannot be reached at first or refuse to log in.
    public static func play(
        on servers: ServerList, control: TimeControl, login: OnlineLogin,
        engine: (level: Int, side: LocalPlay.SideChoice)?,
        challenge: (name: String, side: LocalPlay.SideChoice, rated: Bool)? = nil,
        start: StartChoice = .standard, display: Display
    ) async throws -> OnlineSession.Ending {
        let side = { (choice: LocalPlay.SideChoice) -> Side? in choice == .x ? .x : choice == .o ? .o : nil }
        let console = display.console()
        var settings = OnlineSession.Settings(
            servers: servers, control: control, register: login.register,
            savedSession: login.savedSession(for: servers), isInteractive: console.isInteractive,
            color: console.color,
            engine: engine.map { ($0.level, side($0.side)) },
            challenge: challenge.map { ($0.name, side($0.side), $0.rated) },
            resetToken: login.resetToken)
        settings.start = start
        let session = OnlineSession(settings)
        let runner = OnlineRunner(
            servers: servers, login: login, console: console,
            fullScreen: { display.openFullScreen(colored: console, title: "nanashi online: \(servers)") })
        return try await runner.run(session)
    }
}
