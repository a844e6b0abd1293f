import Foundation
import NanashiProtocol
import NanashiTerminal

/// How to log in: what the player gave on the command line or in the environment, and where
/// sessions are kept. Whatever is missing is asked for.
public struct OnlineLogin {
    var name: String?
    var password: String?
    var register: Bool
    /// A password reset token (`--reset-token`): the password is set as the new one.
    var resetToken: String?
    /// Where the session token is kept; `nil` when there is no configuration folder.
    var store: TokenStore?

    /// The name and password given on the command line, else in the environment (`NANASHI_NAME`,
    /// `NANASHI_PASSWORD`); the session store of the environment's configuration folder. The
    /// environment is the process's unless given.
    public init(
        name: String?, password: String?, register: Bool, resetToken: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        func given(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }
        self.name = name ?? given("NANASHI_NAME")
        self.password = password ?? given("NANASHI_PASSWORD")
        self.register = register
        self.resetToken = resetToken
        store = TokenStore.standard(environment: environment)
    }

    /// The kept session for `servers` (kept for the first of them: they share their players),
    /// unless a name was given and it is someone else's.
    public func savedSession(for servers: ServerList) -> TokenStore.Session? {
        guard let kept = store?.session(for: servers.first),
            name.map({ $0.lowercased() == kept.name.lowercased() }) ?? true
        else { return nil }
        return kept
    }

    /// The name and password, asking at the terminal for those not given.
    func credentials(console: StandardConsole) throws(OnlineFailure) -> ClientMessage.Credentials {
        var name = self.name
        if name == nil {
            guard let typed = console.ask("name: ")?.trimmingCharacters(in: .whitespaces), !typed.isEmpty
            else {
                throw OnlineFailure("no name given (use --name or NANASHI_NAME)")
            }
            name = typed
        }
        var password = self.password
        if password == nil {
            guard let typed = console.askSecret("password: "), !typed.isEmpty else {
                throw OnlineFailure("no password given (use --password or NANASHI_PASSWORD)")
            }
            password = typed
        }
        return ClientMessage.Credentials(name: name!, password: password!)
    }

    /// After a failed login at a terminal: whether to register the name instead.
    func offerToRegister(_ name: String, console: StandardConsole) -> Bool {
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
