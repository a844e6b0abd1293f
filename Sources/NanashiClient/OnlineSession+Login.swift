import NanashiProtocol

extension OnlineSession {
    /// The first login: the kept token if there is one, else a name and password, registering
    /// when asked to. Until it succeeds, any failure ends the session with a message.
    mutating func logIn(_ step: LoginStep, event: Event) {
        switch (step, event) {
        case (.connecting, .connected):
            connected = true
            if let saved = settings.savedSession, settings.resetToken == nil {
                phase = .loggingIn(.savedSession(saved))
                actions.append(send(.auth(token: saved.token), id: "auth"))
            } else {
                askForCredentials()
            }
        case (.connecting, .unreachable(let reason)):
            actions.append(
                .fail(ConnectionError(address: settings.servers.first, reason: reason).description))
        case (.askingCredentials, .credentials(let credentials)):
            sendLogin(credentials, register: settings.register, nameTaken: false)
        case (.askingToRegister(let credentials), .registerAnswer(let yes)):
            guard yes else { return actions.append(.fail(Self.wrongPassword(for: credentials.name))) }
            sendLogin(credentials, register: true, nameTaken: false)
        case (_, .server(.reply(let reply))):
            answered(step, with: reply)
        case (_, .server(.shutdown)), (_, .server(.closed)):
            actions.append(.fail("the server closed the connection"))
        default:
            break
        }
    }

    private mutating func askForCredentials() {
        if let clear = settings.servers.firstInClearText {
            // Said before the password is asked for or sent: only a token goes out later.
            say("warning: \(clear) is plain TCP: the password crosses the network in clear text")
        }
        phase = .loggingIn(.askingCredentials)
        actions.append(.askCredentials)
    }

    private mutating func sendLogin(_ credentials: ClientMessage.Credentials, register: Bool, nameTaken: Bool)
    {
        phase = .loggingIn(.password(credentials, register: register, nameTaken: nameTaken))
        if let token = settings.resetToken {
            return actions.append(send(.resetPassword(credentials, token: token), id: "login"))
        }
        actions.append(send(register ? .register(credentials) : .login(credentials), id: "login"))
    }

    /// A reply while logging in; only the answer to the login counts.
    private mutating func answered(_ step: LoginStep, with reply: Reply) {
        switch step {
        case .savedSession(let saved) where reply.id == .string("auth"):
            switch reply.message {
            case .welcome(let welcome):
                loggedIn(welcome)
            case .error(let error) where error.code == .badCredentials:
                say("the saved session of \(saved.name) has expired; logging in again")
                actions.append(.forgetSavedSession)
                askForCredentials()
            case .error(let error):
                actions.append(.fail("the server refused the saved session: \(error.message)"))
            default:
                actions.append(.fail("the server did not answer the login"))
            }
        case .password(let credentials, let register, let nameTaken) where reply.id == .string("login"):
            switch reply.message {
            case .welcome(let welcome):
                if register { say("registered \(welcome.name)") }
                if settings.resetToken != nil { say("new password set for \(welcome.name)") }
                loggedIn(welcome)
            case .error(let error) where settings.resetToken != nil:
                actions.append(.fail("the password reset was refused: \(error.message)"))
            case .error(let error) where error.code == .nameTaken && register:
                // Registering a name that exists: it may be this player's, so try logging in.
                sendLogin(credentials, register: false, nameTaken: true)
            case .error(let error) where error.code == .badCredentials && nameTaken:
                actions.append(.fail("\(credentials.name) is someone else's name: choose another"))
            case .error(let error) where error.code == .badCredentials && !register:
                guard settings.isInteractive else {
                    return actions.append(.fail(Self.wrongPassword(for: credentials.name)))
                }
                phase = .loggingIn(.askingToRegister(credentials))
                actions.append(.askToRegister(name: credentials.name))
            case .error(let error):
                actions.append(.fail(error.message))
            default:
                actions.append(.fail("the server did not answer the login"))
            }
        default:
            break
        }
    }

    private static func wrongPassword(for name: String) -> String {
        "wrong name or password for \(name) (--register creates a new account)"
    }

    private mutating func loggedIn(_ welcome: Welcome) {
        phase = .joining
        accept(welcome)
        actions.append(.startInput)
        welcomed()
    }

    /// Takes the identity a `welcome` gives, and keeps its token for next time.
    mutating func accept(_ welcome: Welcome) {
        name = welcome.name
        token = welcome.token
        backoff.reset()
        actions.append(.saveSession(TokenStore.Session(name: welcome.name, token: welcome.token)))
    }

    /// After `welcome`: a `ping` whose `pong` comes after the `game`, if there is one, so its
    /// absence is known.
    mutating func welcomed() {
        syncing = true
        gameSinceWelcome = false
        actions.append(send(.ping, id: "sync"))
    }

    // MARK: Losing and finding the server

    /// The open connection closed: reconnects after a while, or, once input has ended and every
    /// line of it was played (nothing is left to come back for), leaves.
    mutating func connectionLost() -> Ending? {
        connected = false
        awaitingAnswer = false
        syncing = false
        if inputEnded, pending.isEmpty {
            return leave(reason: "input ended and the connection to \(settings.servers) was lost")
        }
        actions.append(.clearStatus)
        let delay = backoff.next()
        say("the connection to \(settings.servers) was lost; reconnecting in \(Self.seconds(delay))")
        actions.append(.reconnect(after: delay))
        return nil
    }

    mutating func reconnected() {
        connected = true
        guard let token else { return }
        // Not back until the `pong` after `welcome`: input waits till then.
        syncing = true
        actions.append(send(.auth(token: token), id: "auth"))
    }

    /// A connection could not be opened: tries again after a while, or, once input has ended,
    /// leaves (piped input would otherwise wait for ever on a server that stays away): at once
    /// if every line was played, else after `attemptsOnceInputEnded` failed attempts in a row
    /// (about 45 s, near the server's grace period for an absent player).
    mutating func unreachable(_ reason: String) -> Ending? {
        if inputEnded, pending.isEmpty || backoff.attempts >= Self.attemptsOnceInputEnded {
            return leave(reason: "input ended and \(settings.servers) cannot be reached (\(reason))")
        }
        let delay = backoff.next()
        say("cannot reach \(settings.servers) (\(reason)); trying again in \(Self.seconds(delay))")
        actions.append(.reconnect(after: delay))
        return nil
    }

    /// Failed attempts to reconnect after which piped input that has ended, with lines still to
    /// play, gives up.
    static let attemptsOnceInputEnded = 8

    /// `0.5 s`, `2 s`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
