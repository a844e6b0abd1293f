import ArgumentParser
import Foundation
import NanashiClient
import NanashiProtocol

/// `nanashi online`: rated games against other people through a server.
struct Online: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: "The server, HOST:PORT (default 127.0.0.1:7878), or tls://HOST:PORT for TLS.")
    var server: String?

    @Option(help: "A PEM file of the certificates to trust for a tls:// server (else the system's).")
    var ca: String?

    @Option(help: "The time control, MINUTES+SECONDS added per move.")
    var time = "5+3"

    @Option(help: "Your player name (or NANASHI_NAME).")
    var name: String?

    @Option(help: "Your password (or NANASHI_PASSWORD; safer than a flag, which others may see).")
    var password: String?

    @Flag(help: "Create the account (logs in instead when the name and password are yours already).")
    var register = false

    @Flag(
        name: .customLong("no-color"), help: "Plain text, no colours (NO_COLOR in the environment works too)."
    )
    var noColour = false

    func run() async throws {
        let address = try ServerAddress.fromOption(server, ca: ca)
        let control: NanashiProtocol.TimeControl
        do {
            control = try NanashiProtocol.TimeControl(parsing: time)
        } catch {
            throw InputError(error.description)
        }
        let environment = ProcessInfo.processInfo.environment
        let login = OnlineLogin(
            name: name ?? environment["NANASHI_NAME"].flatMap { $0.isEmpty ? nil : $0 },
            password: password ?? environment["NANASHI_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 },
            register: register, store: TokenStore.standard(environment: environment))
        let console = Console(noColour: noColour)
        let session = OnlineSession(console: console, address: address, control: control, login: login)
        _ = try await session.run()
    }
}

/// How to log in: what the player gave on the command line or in the environment, and where
/// sessions are kept. Whatever is missing is asked for.
struct OnlineLogin {
    var name: String?
    var password: String?
    var register: Bool
    /// Where the session token is kept; `nil` when there is no configuration folder.
    var store: TokenStore?

    /// The name and password, asking at the terminal for those not given.
    func credentials(console: Console) throws -> ClientMessage.Credentials {
        var name = self.name
        if name == nil {
            guard let typed = console.ask("name: ")?.trimmingCharacters(in: .whitespaces), !typed.isEmpty
            else {
                throw InputError("no name given (use --name or NANASHI_NAME)")
            }
            name = typed
        }
        var password = self.password
        if password == nil {
            guard let typed = console.askSecret("password: "), !typed.isEmpty else {
                throw InputError("no password given (use --password or NANASHI_PASSWORD)")
            }
            password = typed
        }
        return ClientMessage.Credentials(name: name!, password: password!)
    }

    /// After a failed login at a terminal: whether to register the name instead.
    func offerToRegister(_ name: String, console: Console) -> Bool {
        console.say("wrong password, or nobody is called \(name)")
        while true {
            guard let answer = console.ask("register \(name) as a new player? (y/n)> ") else { return false }
            switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return true
            case "n", "no": return false
            default: console.say("please answer y or n")
            }
        }
    }
}
