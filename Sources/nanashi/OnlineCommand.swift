import ArgumentParser
import NanashiAI
import NanashiClient
import NanashiCommandLine
import NanashiCore
import NanashiProtocol
import NanashiTerminal

/// `nanashi online`: games against other people through a server, rated or casual, sought or
/// by challenge, or unrated ones against the server's engine (`--ai LEVEL`).
struct OnlineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "online",
        abstract: "Play online: against someone waiting, a player you challenge, or the server's engine.",
        discussion: """
            Logs in to the server (--server, 127.0.0.1:7878 by default), waits for an opponent at \
            the time control, then plays as in 'nanashi play': a square with your piece, then the \
            destination; or a full move. Type help for the commands.

            The first time, give a name and password (flags, NANASHI_NAME and NANASHI_PASSWORD, \
            or answer the prompts); the session is kept in $XDG_CONFIG_HOME/nanashi/sessions.json \
            (else ~/.config/nanashi/), readable only by you, and used next time. --register creates \
            the account (or logs in if it is yours already); at a terminal, a failed login offers \
            to register the name.

            With --ai LEVEL (\(Level.range.lowerBound) to \(Level.range.upperBound), as in \
            'nanashi play') the game is against the server's own engine at that level, starting at \
            once, unrated, in the same account and archive; --side picks your side (random by \
            default), and --layout or --fen the start.

            With --challenge NAME the game is against that player once they accept it: rated, \
            or casual (no rating changes, takebacks allowed) with --casual or --fen. A challenge \
            that reaches you while you wait is answered with accept or decline.

            With piped input, one move or command per line; each line waits for your turn, and the \
            end of input leaves. A dropped connection is retried by itself, and the game resumes.
            """
    )

    @OptionGroup var serverOptions: ServerOptions

    @Option(help: "The time control, MINUTES+SECONDS added per move.")
    var time = "5+3"

    @Option(help: "Your player name (or NANASHI_NAME).")
    var name: String?

    // A password, a token and a FEN are taken whatever they start with: each may start with '-'.
    @Option(
        parsing: .unconditional,
        help: "Your password (or NANASHI_PASSWORD; safer than a flag, which others may see).")
    var password: String?

    @Flag(help: "Create the account (logs in instead when the name and password are yours already).")
    var register = false

    @Option(
        parsing: .unconditional,
        help: "A password reset token from the server's operator: the password given becomes your new one.")
    var resetToken: String?

    @Option(
        help:
            """
            Play the server's engine at this level (\(Level.range.lowerBound) to \
            \(Level.range.upperBound), \(Level.all[0].about) to \(Level.strongest.elo) Elo as in \
            'nanashi play --help') instead of a person, unrated.
            """
    )
    var ai: Int?

    @Option(help: "Challenge this player instead of seeking anyone (they accept or decline).")
    var challenge: String?

    @Flag(help: "With --challenge, a casual game: it changes no rating.")
    var casual = false

    @Option(help: "Start from this layout ('nanashi layouts'); a seek pairs only with the same.")
    var layout: String?

    @Option(
        parsing: .unconditional, help: "With --challenge or --ai, start from this FEN instead: always casual."
    )
    var fen: String?

    @Option(help: "With --ai or --challenge, your side: x (moves first), o, or random.")
    var side: LocalPlay.SideChoice = .random

    @OptionGroup var displayOptions: DisplayOptions

    func validate() throws {
        if let ai { try Level.range.check(ai, "--ai") }
        if ai != nil, challenge != nil { throw ValidationError("--ai and --challenge do not go together") }
        if let challenge, let level = Opponent.engineLevel(named: challenge) {
            throw ValidationError(
                "'\(challenge)' is the server's engine: play it with --ai \(level) (unrated)")
        }
        if casual, challenge == nil { throw ValidationError("--casual goes with --challenge") }
        if fen != nil, challenge == nil, ai == nil {
            throw ValidationError("--fen goes with --challenge or --ai")
        }
        do { _ = try StartChoice(layout: layout, fen: fen) } catch {
            throw ValidationError(error.description)
        }
        guard resetToken == nil || !register else {
            throw ValidationError("--reset-token and --register exclude each other")
        }
    }

    func run() async throws {
        let login = OnlineLogin(name: name, password: password, register: register, resetToken: resetToken)
        _ = try await OnlineRunner.play(
            on: try serverOptions.servers(), control: try TimeControl(parsing: time), login: login,
            engine: ai.map { ($0, side) }, challenge: challenge.map { ($0, side, !casual) },
            start: try StartChoice(layout: layout, fen: fen), display: displayOptions.display)
    }
}
