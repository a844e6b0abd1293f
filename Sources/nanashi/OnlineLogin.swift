import Foundation
import NanashiClient
import NanashiProtocol

/// How to log in: what the player gave on the command line or in the environment, and where
/// sessions are kept. Whatever is missing is asked for.
struct OnlineLogin {
    var name: String?
    var password: String?
    var register: Bool
    /// Where the session token is kept; `nil` when there is no configuration folder.
    var store: TokenStore?

    /// The kept session for `address`, unless a name was given and it is someone else's.
    func savedSession(for address: ServerAddress) -> TokenStore.Session? {
        guard let kept = store?.session(for: address),
            name.map({ $0.lowercased() == kept.name.lowercased() }) ?? true
        else { return nil }
        return kept
    }

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
